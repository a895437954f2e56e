import { useCallback, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Field, inputClass } from '@/components/ui/field';
import { SearchInput } from '@/components/ui/search-input';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { screenHref } from '@/config/paths';
import { useInvoices } from '@/features/invoicing/api/get-invoices';
import type { InvoiceFilters } from '@/features/invoicing/api/types';
import { InvoiceBoard, InvoiceStats } from '@/features/invoicing/components/invoice-board';
import { InvoiceTable, useInvoiceTableSettings, type InvoiceSortKey } from '@/features/invoicing/components/invoice-table';
import { SavedViews } from '@/features/views/components/saved-views';
import type { ViewState } from '@/features/views/api/views';
import type { SortDir } from '@/components/ui/table-tools';

const VIEWS = [
  { key: 'board', label: 'Board' },
  { key: 'table', label: 'Table' },
] as const;

/**
 * Invoice History (seed 002 §2): refresh, five stat tiles, search and dates, and the four-status
 * board, or the same invoices as a table (`?view=table`, kept in the address).
 */
export function InvoiceHistoryRoute() {
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'table' ? 'table' : 'board';
  const [filters, setFilters] = useState<InvoiceFilters>({ search: '', status: '', dateFrom: '', dateTo: '' });
  const invoices = useInvoices(filters);
  const onSearch = useCallback((search: string) => setFilters((f) => ({ ...f, search })), []);
  const items = invoices.data?.items ?? [];
  const settings = useInvoiceTableSettings();
  // A saved view: the filters, the board or the table, its hidden columns and its order.
  const viewState = (): ViewState => ({ filters, view, hidden: [...settings.columns.hidden], sort: settings.sorting.sort });
  const applyView = (v: ViewState) => {
    const f = (v.filters ?? {}) as Partial<InvoiceFilters>;
    setFilters({ search: f.search ?? '', status: f.status ?? '', dateFrom: f.dateFrom ?? '', dateTo: f.dateTo ?? '' });
    setParams(v.view === 'table' ? { view: 'table' } : {}, { replace: true });
    settings.columns.set(Array.isArray(v.hidden) ? v.hidden.map(String) : []);
    const sort = v.sort as { key?: string; dir?: SortDir } | undefined;
    if (sort?.key && (sort.dir === 'asc' || sort.dir === 'desc')) settings.sorting.set({ key: sort.key as InvoiceSortKey, dir: sort.dir });
  };

  return (
    <div className="space-y-6">
      <title>Invoice History · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Invoice History</h1>
        <div className="flex items-center gap-3">
          <Link to={screenHref('invoicing', pathname)} className="text-sm font-semibold text-indigo-700 hover:underline">
            New invoice
          </Link>
          <SavedViews screen="invoices" current={viewState} onApply={applyView} />
          <Button variant="secondary" onClick={() => void invoices.refetch()} disabled={invoices.isFetching}>
            {invoices.isFetching ? 'Refreshing...' : 'Refresh'}
          </Button>
        </div>
      </div>
      <InvoiceStats filters={filters} />
      {invoices.data && invoices.data.total > items.length ? (
        <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          Showing the newest {items.length.toLocaleString()} of {invoices.data.total.toLocaleString()} invoices. Search or
          pick dates to find the rest.
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Search invoices">
          <SearchInput
            className={inputClass}
            value={filters.search}
            placeholder="Number, customer or email"
            onSearch={onSearch}
          />
        </Field>
        <Field label="From">
          <DatePicker value={filters.dateFrom} max={filters.dateTo || undefined} onChange={(dateFrom) => setFilters((f) => ({ ...f, dateFrom }))} />
        </Field>
        <Field label="To">
          <DatePicker value={filters.dateTo} min={filters.dateFrom || undefined} onChange={(dateTo) => setFilters((f) => ({ ...f, dateTo }))} />
        </Field>
      </div>
      {invoices.isPending ? (
        <Skeleton rows={4} label="Loading invoices" />
      ) : invoices.isError ? (
        <ErrorState title="Could not load invoices" error={invoices.error} onRetry={() => void invoices.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title="No invoices found">
          {filters.search || filters.dateFrom || filters.dateTo ? 'Try other filters.' : 'Create an invoice to see it here.'}
        </EmptyState>
      ) : (
        <>
          <div role="group" aria-label="View" className="inline-flex rounded-md shadow-xs ring-1 ring-slate-300">
            {VIEWS.map((v) => (
              <button
                key={v.key}
                type="button"
                aria-pressed={view === v.key}
                onClick={() => setParams(v.key === 'table' ? { view: 'table' } : {}, { replace: true })}
                className="px-3 py-1 text-sm font-medium text-slate-700 first:rounded-l-md last:rounded-r-md aria-pressed:bg-indigo-600 aria-pressed:text-white"
              >
                {v.label}
              </button>
            ))}
          </div>
          {view === 'table' ? <InvoiceTable items={items} settings={settings} /> : <InvoiceBoard items={items} />}
        </>
      )}
    </div>
  );
}
