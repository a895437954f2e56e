import { useCallback } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Field, inputClass } from '@/components/ui/field';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { ColumnMenu } from '@/components/ui/table-tools';
import { useListTable } from '@/components/ui/use-list-table';
import { screenHref } from '@/config/paths';
import { INVOICE_SORTS, useInvoices } from '@/features/invoicing/api/get-invoices';
import type { InvoiceFilters } from '@/features/invoicing/api/types';
import { InvoiceBoard, InvoiceStats } from '@/features/invoicing/components/invoice-board';
import { INVOICE_COLUMNS, InvoiceTable } from '@/features/invoicing/components/invoice-table';
import type { ViewState } from '@/features/views/api/views';
import { SavedViews } from '@/features/views/components/saved-views';
import { formatTotal } from '@/lib/api-client';

const VIEWS = [
  { key: 'board', label: 'Board' },
  { key: 'table', label: 'Table' },
] as const;
const FILTER_KEYS = ['search', 'status', 'dateFrom', 'dateTo'] as const;
const PAGE_SIZE = 50;

/**
 * Invoice History (seed 002 §2): refresh, five stat tiles, search and dates, and the four-status
 * board of the newest invoices, or every matching invoice as a dense table sorted and paged by the
 * server (`?view=table`). Filters, order and page are kept in the address.
 */
export function InvoiceHistoryRoute() {
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'table' ? 'table' : 'board';
  const list = useListTable({
    table: 'invoices',
    columns: INVOICE_COLUMNS.map((c) => c.key),
    filters: FILTER_KEYS,
    sorts: INVOICE_SORTS,
    // The api's own order: newest first.
    initial: { key: 'created', dir: 'desc' },
  });
  const filters: InvoiceFilters = list.filters;
  const board = useInvoices(filters, undefined, view === 'board');
  const table = useInvoices(filters, { limit: PAGE_SIZE, offset: list.offset, ...list.serverSort }, view === 'table');
  const invoices = view === 'table' ? table : board;
  const items = invoices.data?.items ?? [];
  const { setFilter } = list;
  const onSearch = useCallback((search: string) => setFilter('search', search), [setFilter]);

  const setView = (to: (typeof VIEWS)[number]['key']) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (to === 'table') next.set('view', 'table');
        else next.delete('view');
        return next;
      },
      { replace: true },
    );
  // A saved view: the filters, the board or the table, its hidden columns and its order.
  const viewState = (): ViewState => ({ ...list.viewState(), view });
  const applyView = (v: ViewState) => {
    const next = new URLSearchParams();
    const saved = (v.filters ?? {}) as Record<string, unknown>;
    for (const f of FILTER_KEYS) {
      const value = saved[f];
      if (typeof value === 'string' && value) next.set(f, value);
    }
    const sort = v.sort as { key?: unknown; dir?: unknown } | null | undefined;
    if (typeof sort?.key === 'string' && Object.hasOwn(INVOICE_SORTS, sort.key)) {
      next.set('sort', sort.key);
      if (sort.dir === 'asc' || sort.dir === 'desc') next.set('dir', sort.dir);
    }
    if (v.view === 'table') next.set('view', 'table');
    list.selection.clear();
    setParams(next);
    list.columns.set(Array.isArray(v.hidden) ? v.hidden.map(String) : []);
  };

  return (
    <div className="space-y-6">
      <title>Invoice History · Prospector</title>
      <PageHeader
        title="Invoice History"
        count={invoices.data ? formatTotal(invoices.data) : undefined}
        action={
          <>
            <Link to={screenHref('invoicing', pathname)} className="text-sm font-semibold text-indigo-700 hover:underline">
              New invoice
            </Link>
            <SavedViews screen="invoices" current={viewState} onApply={applyView} />
            <Button variant="secondary" onClick={() => void invoices.refetch()} disabled={invoices.isFetching}>
              {invoices.isFetching ? 'Refreshing...' : 'Refresh'}
            </Button>
          </>
        }
      />
      <InvoiceStats filters={filters} />
      {view === 'board' && invoices.data && invoices.data.total > items.length ? (
        <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          Showing the newest {items.length.toLocaleString()} of {invoices.data.total.toLocaleString()} invoices. Search or
          pick dates to find the rest, or switch to the table to page through all of them.
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Search invoices">
          <SearchInput className={inputClass} value={filters.search} placeholder="Number, customer or email" onSearch={onSearch} />
        </Field>
        <Field label="From">
          <DatePicker value={filters.dateFrom} max={filters.dateTo || undefined} onChange={(v) => setFilter('dateFrom', v)} />
        </Field>
        <Field label="To">
          <DatePicker value={filters.dateTo} min={filters.dateFrom || undefined} onChange={(v) => setFilter('dateTo', v)} />
        </Field>
      </div>
      {invoices.isPending ? (
        <Skeleton rows={4} label="Loading invoices" />
      ) : invoices.isError ? (
        <ErrorState title="Could not load invoices" error={invoices.error} onRetry={() => void invoices.refetch()} />
      ) : items.length === 0 && list.offset === 0 ? (
        <EmptyState title="No invoices found">{list.filtered ? 'Try other filters.' : 'Create an invoice to see it here.'}</EmptyState>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <div role="group" aria-label="View" className="inline-flex rounded-md shadow-xs ring-1 ring-slate-300">
              {VIEWS.map((v) => (
                <button
                  key={v.key}
                  type="button"
                  aria-pressed={view === v.key}
                  onClick={() => setView(v.key)}
                  className="px-3 py-1 text-sm font-medium text-slate-700 first:rounded-l-md last:rounded-r-md aria-pressed:bg-indigo-600 aria-pressed:text-white"
                >
                  {v.label}
                </button>
              ))}
            </div>
            {view === 'table' ? (
              <div className="ml-auto">
                <ColumnMenu columns={INVOICE_COLUMNS} shown={list.columns.shown} onToggle={list.columns.toggle} />
              </div>
            ) : null}
          </div>
          {view === 'table' ? (
            <>
              <InvoiceTable rows={items} state={list} />
              <Pager
                offset={list.offset}
                count={items.length}
                total={table.data?.total ?? 0}
                pageSize={PAGE_SIZE}
                onOffsetChange={list.setOffset}
              />
            </>
          ) : (
            <InvoiceBoard items={items} />
          )}
        </>
      )}
    </div>
  );
}
