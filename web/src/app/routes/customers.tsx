import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Field, inputClass } from '@/components/ui/field';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { ContactDetailDialog } from '@/features/contacts/components/contact-detail-dialog';
import { useCustomerStats } from '@/features/customers/api/get-customer-stats';
import { useCustomers } from '@/features/customers/api/get-customers';
import { CustomerCard } from '@/features/customers/components/customer-card';
import { formatTotal } from '@/lib/api-client';
import type { Contact } from '@/types/api';

const PAGE_SIZE = 48;

export function CustomersRoute() {
  const [params, setParams] = useSearchParams();
  const [detail, setDetail] = useState<Contact | null>(null);
  const q = params.get('q') ?? '';
  const offset = Number(params.get('offset')) || 0;
  const customers = useCustomers(q, offset, PAGE_SIZE);
  const stats = useCustomerStats();
  const s = stats.data;
  const figure = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString());

  return (
    <div className="space-y-6">
      <title>Customers · Prospector</title>
      <h1 className="text-2xl font-bold tracking-tight">Customers</h1>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatTile label="Total Customers" value={figure(s?.total)} />
        <StatTile label="High Value (85+)" value={figure(s?.highValue)} />
        <StatTile label="New (30 days)" value={figure(s?.newThisMonth)} />
        <StatTile label="Showing" value={customers.data ? formatTotal(customers.data) : figure(undefined)} note={q ? `matching “${q}”` : 'all customers'} />
      </div>
      <Field label="Search customers" className="max-w-md">
        <SearchInput
          className={inputClass}
          placeholder="Name, email or title"
          value={q}
          onSearch={(text) => setParams(text ? { q: text } : {})}
        />
      </Field>
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
          <ul aria-label="Customers" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {customers.data.items.map((c) => (
              <CustomerCard key={c.id} customer={c} onOpen={() => setDetail(c)} />
            ))}
          </ul>
          <Pager
            offset={offset}
            count={customers.data.items.length}
            total={customers.data.total}
            exact={customers.data.exact}
            pageSize={PAGE_SIZE}
            onOffsetChange={(o) =>
              setParams((prev) => {
                const next = new URLSearchParams(prev);
                if (o) next.set('offset', String(o));
                else next.delete('offset');
                return next;
              })
            }
          />
        </>
      )}
      {detail ? <ContactDetailDialog contact={detail} onClose={() => setDetail(null)} /> : null}
    </div>
  );
}
