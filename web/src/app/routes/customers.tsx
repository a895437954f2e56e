import { useState } from 'react';

import { ViewToggle } from '@/components/ui/data-table';
import { Field, inputClass } from '@/components/ui/field';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { ColumnMenu } from '@/components/ui/table-tools';
import { useListTable } from '@/components/ui/use-list-table';
import { CONTACT_SORTS } from '@/features/contacts/api/get-contacts';
import { ContactDetailDialog } from '@/features/contacts/components/contact-detail-dialog';
import { ContactSelectionActions } from '@/features/contacts/components/contact-selection-actions';
import { useCustomerStats } from '@/features/customers/api/get-customer-stats';
import { useCustomers } from '@/features/customers/api/get-customers';
import { CustomerCard } from '@/features/customers/components/customer-card';
import { CUSTOMER_COLUMNS, CustomersTable } from '@/features/customers/components/customers-table';
import { AddToSequenceDialog } from '@/features/outreach/components/add-to-sequence-dialog';
import { NewCampaignDialog } from '@/features/outreach/components/new-campaign-dialog';
import { SelectionBar } from '@/features/outreach/components/selection-bar';
import { SavedViews } from '@/features/views/components/saved-views';
import { formatTotal } from '@/lib/api-client';
import type { Contact } from '@/types/api';

const PAGE_SIZE = 48;
const FILTER_KEYS = ['q'] as const;

/**
 * Customers: stats, a search, and the customers as a dense table sorted and paged by the server
 * (or as cards, `?view=cards`); ticked customers join a sequence or a campaign, are exported or
 * deleted.
 */
export function CustomersRoute() {
  const list = useListTable({
    table: 'customers',
    columns: CUSTOMER_COLUMNS.map((c) => c.key),
    filters: FILTER_KEYS,
    sorts: CONTACT_SORTS,
    initial: { key: 'created', dir: 'desc' },
  });
  const { selection } = list;
  const [detail, setDetail] = useState<Contact | null>(null);
  const [dialog, setDialog] = useState<'enroll' | 'campaign' | null>(null);
  const { q } = list.filters;
  const customers = useCustomers({ q, ...list.serverSort, offset: list.offset, limit: PAGE_SIZE });
  const stats = useCustomerStats();
  const s = stats.data;
  const figure = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString());
  const ids = [...selection.picked];
  const pickedLabel = `${ids.length.toLocaleString()} ${ids.length === 1 ? 'customer' : 'customers'}`;

  return (
    <div className="space-y-6">
      <title>Customers · Prospector</title>
      <PageHeader title="Customers" count={customers.data ? formatTotal(customers.data) : undefined} />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatTile label="Total Customers" value={figure(s?.total)} />
        <StatTile label="High Value (85+)" value={figure(s?.highValue)} />
        <StatTile label="New (30 days)" value={figure(s?.newThisMonth)} />
        <StatTile label="Showing" value={customers.data ? formatTotal(customers.data) : figure(undefined)} note={q ? `matching “${q}”` : 'all customers'} />
      </div>
      <Field label="Search customers" className="max-w-md">
        <SearchInput className={inputClass} placeholder="Name, email or title" value={q} onSearch={(text) => list.setFilter('q', text)} />
      </Field>
      <div className="flex flex-wrap items-center gap-2">
        <ViewToggle view={list.view} onChange={list.setView} />
        <div className="ml-auto flex gap-2">
          <SavedViews screen="customers" current={list.viewState} onApply={list.applyView} />
          {list.view === 'table' ? <ColumnMenu columns={CUSTOMER_COLUMNS} shown={list.columns.shown} onToggle={list.columns.toggle} /> : null}
        </div>
      </div>
      {ids.length > 0 ? (
        <SelectionBar
          count={pickedLabel}
          onAddToSequence={() => setDialog('enroll')}
          onNewCampaign={() => setDialog('campaign')}
          onClear={selection.clear}
        >
          <ContactSelectionActions
            selection={{ contactIds: ids }}
            what={pickedLabel}
            title="Customers"
            onDone={selection.clear}
            onDeleted={() => list.afterDelete(customers.data?.items.map((c) => c.id) ?? [], PAGE_SIZE)}
          />
        </SelectionBar>
      ) : null}
      {customers.isPending ? (
        <Skeleton rows={3} label="Loading customers" />
      ) : customers.isError ? (
        <ErrorState title="Failed to load customers" error={customers.error} onRetry={() => void customers.refetch()} />
      ) : customers.data.items.length === 0 ? (
        <EmptyState title={q ? 'No customers match your search' : 'No customers yet'}>
          {q ? 'Try another search.' : 'Qualified leads converted on the Lead Pipeline appear here.'}
        </EmptyState>
      ) : (
        <>
          {list.view === 'table' ? (
            <CustomersTable rows={customers.data.items} state={list} onOpen={setDetail} />
          ) : (
            <ul aria-label="Customers" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {customers.data.items.map((c) => (
                <CustomerCard key={c.id} customer={c} onOpen={() => setDetail(c)} />
              ))}
            </ul>
          )}
          <Pager
            offset={list.offset}
            count={customers.data.items.length}
            total={customers.data.total}
            exact={customers.data.exact}
            pageSize={PAGE_SIZE}
            onOffsetChange={list.setOffset}
          />
        </>
      )}
      {detail ? <ContactDetailDialog contact={detail} onClose={() => setDetail(null)} /> : null}
      {dialog === 'enroll' ? (
        <AddToSequenceDialog selection={{ contactIds: ids }} label={pickedLabel} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'campaign' ? (
        <NewCampaignDialog selection={{ contactIds: ids }} label={pickedLabel} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}
