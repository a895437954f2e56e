import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ViewToggle } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { ColumnMenu } from '@/components/ui/table-tools';
import { useListTable } from '@/components/ui/use-list-table';
import type { ContactSelection } from '@/features/contacts/api/bulk-contacts';
import { CONTACT_SORTS, useContacts, type ContactFilters as Filters } from '@/features/contacts/api/get-contacts';
import { BulkContactActions } from '@/features/contacts/components/bulk-contact-actions';
import { ContactCard } from '@/features/contacts/components/contact-card';
import { ContactFilters } from '@/features/contacts/components/contact-filters';
import { ALL_STATUSES, ContactFormDialog } from '@/features/contacts/components/contact-form-dialog';
import { ContactSelectionActions } from '@/features/contacts/components/contact-selection-actions';
import { CONTACT_COLUMNS, ContactsTable, contactName } from '@/features/contacts/components/contacts-table';
import { EmailHistoryDialog } from '@/features/contacts/components/email-history-dialog';
import { ExportContactsButton } from '@/features/contacts/components/export-contacts-button';
import { ImportContactsDialog } from '@/features/contacts/components/import-contacts-dialog';
import { AddToSequenceDialog } from '@/features/outreach/components/add-to-sequence-dialog';
import { NewCampaignDialog } from '@/features/outreach/components/new-campaign-dialog';
import { SelectionBar } from '@/features/outreach/components/selection-bar';
import { SavedViews } from '@/features/views/components/saved-views';
import { formatTotal } from '@/lib/api-client';
import { isOneOf } from '@/lib/guards';
import { REGIONS } from '@/lib/rules';
import type { Contact } from '@/types/api';

const PAGE_SIZE = 50;
const FILTER_KEYS = ['q', 'role', 'region', 'status'] as const;
const REGION_VALUES = REGIONS.map(([region]) => region);

/** A list filter from the address as the server's selection takes it: blank (any) or one of `values`, else left out. */
const listed = <T extends string>(values: readonly T[], value: string | undefined): T | '' | undefined =>
  value === '' || isOneOf(values, value) ? value : undefined;

type DialogState =
  | { kind: 'add' }
  | { kind: 'edit'; contact: Contact }
  | { kind: 'history'; contact: Contact }
  | { kind: 'import' }
  | { kind: 'enroll' }
  | { kind: 'campaign' }
  | null;

/**
 * Contact Intelligence: the contacts as a dense table sorted and paged by the server (or as cards,
 * `?view=cards`), filters, order, page and view in the address; ticked contacts (or all the
 * filters match) get a status, a sequence, a campaign, enrichment, a score, an export or deleted.
 */
export function ContactsRoute() {
  const list = useListTable({
    table: 'contacts',
    columns: CONTACT_COLUMNS.map((c) => c.key),
    filters: FILTER_KEYS,
    sorts: CONTACT_SORTS,
    initial: { key: 'created', dir: 'desc' },
  });
  const { selection } = list;
  const [dialog, setDialog] = useState<DialogState>(null);
  const filters: Filters = { ...list.filters, ...list.serverSort, limit: PAGE_SIZE, offset: list.offset };
  const contacts = useContacts(filters);
  const page = contacts.data?.items.map((c) => c.id) ?? [];
  const total = contacts.data?.total;
  // Contacts ticked by hand, or every contact the filters match (the server resolves those).
  const picked: ContactSelection = selection.allMatching
    ? {
        contactFilter: {
          q: filters.q,
          role: filters.role,
          status: listed(ALL_STATUSES, filters.status),
          region: listed(REGION_VALUES, filters.region),
        },
      }
    : { contactIds: [...selection.picked] };
  const selectedCount = selection.allMatching ? (total ?? 0) : selection.picked.size;
  const floor = selection.allMatching && contacts.data?.exact === false ? '+' : '';
  const selectedLabel = `${selectedCount.toLocaleString()}${floor} ${selectedCount === 1 && !floor ? 'contact' : 'contacts'}`;

  return (
    <div className="space-y-6">
      <title>Contact Intelligence · Prospector</title>
      <PageHeader
        title="Contact Intelligence"
        count={contacts.data ? formatTotal(contacts.data) : undefined}
        action={
          <>
            <ExportContactsButton filters={filters} total={contacts.data ? formatTotal(contacts.data) : undefined} />
            <Button variant="secondary" onClick={() => setDialog({ kind: 'import' })}>
              Import Contacts
            </Button>
            <Button onClick={() => setDialog({ kind: 'add' })}>Add Contact</Button>
          </>
        }
      />
      <ContactFilters filters={filters} filtered={list.filtered} update={list.setFilter} onClear={list.clearFilters} />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <ViewToggle view={list.view} onChange={list.setView} />
        {contacts.data && contacts.data.items.length > 0 ? (
          <>
            {/* The table's header checkbox ticks the page; the cards have no header. */}
            {list.view === 'cards' ? (
              <Button size="sm" variant="secondary" onClick={() => selection.selectPage(page)}>
                Select page
              </Button>
            ) : null}
            <Button size="sm" variant="secondary" aria-pressed={selection.allMatching} onClick={selection.selectAllMatching}>
              Select all {formatTotal(contacts.data)} matching
            </Button>
          </>
        ) : null}
        <div className="ml-auto flex gap-2">
          <SavedViews screen="contacts" current={list.viewState} onApply={list.applyView} />
          {list.view === 'table' ? <ColumnMenu columns={CONTACT_COLUMNS} shown={list.columns.shown} onToggle={list.columns.toggle} /> : null}
        </div>
      </div>
      {selectedCount > 0 ? (
        <SelectionBar
          count={selectedLabel}
          onAddToSequence={() => setDialog({ kind: 'enroll' })}
          onNewCampaign={() => setDialog({ kind: 'campaign' })}
          onClear={selection.clear}
        >
          <ContactSelectionActions
            selection={picked}
            what={selectedLabel}
            title="Contacts"
            withStatus
            onDone={selection.clear}
            onDeleted={() => list.afterDelete(page, PAGE_SIZE)}
          />
          <BulkContactActions selection={picked} />
        </SelectionBar>
      ) : null}

      {contacts.isPending ? (
        <Skeleton rows={4} label="Loading contacts" />
      ) : contacts.isError ? (
        <ErrorState title="Failed to load contacts" error={contacts.error} onRetry={() => void contacts.refetch()} />
      ) : contacts.data.items.length === 0 ? (
        <EmptyState title={list.filtered ? 'No contacts match these filters' : 'No contacts yet'}>
          {list.filtered ? 'Try clearing a filter.' : 'Add a contact or import a CSV file to get started.'}
        </EmptyState>
      ) : (
        <>
          {list.view === 'table' ? (
            <ContactsTable
              label="Contacts"
              rows={contacts.data.items}
              columns={CONTACT_COLUMNS}
              state={list}
              actions={(c) => (
                <button
                  type="button"
                  onClick={() => setDialog({ kind: 'edit', contact: c })}
                  aria-label={`Edit ${contactName(c)}`}
                  className="text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  Edit
                </button>
              )}
            />
          ) : (
            <ul aria-label="Contacts" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {contacts.data.items.map((c) => (
                <ContactCard
                  key={c.id}
                  contact={c}
                  onEdit={() => setDialog({ kind: 'edit', contact: c })}
                  onHistory={() => setDialog({ kind: 'history', contact: c })}
                  selected={selection.isPicked(c.id)}
                  onSelect={() => selection.toggle(c.id, page)}
                />
              ))}
            </ul>
          )}
          <Pager
            offset={list.offset}
            count={contacts.data.items.length}
            total={contacts.data.total}
            exact={contacts.data.exact}
            pageSize={PAGE_SIZE}
            onOffsetChange={list.setOffset}
          />
        </>
      )}
      {dialog?.kind === 'add' ? <ContactFormDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'edit' ? <ContactFormDialog contact={dialog.contact} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'history' ? <EmailHistoryDialog contact={dialog.contact} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'import' ? <ImportContactsDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'campaign' ? (
        <NewCampaignDialog selection={picked} label={selectedLabel} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'enroll' ? (
        <AddToSequenceDialog selection={picked} label={selectedLabel} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}
