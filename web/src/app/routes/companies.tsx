import { useState } from 'react';

import { ViewToggle } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { ColumnMenu } from '@/components/ui/table-tools';
import { useListTable } from '@/components/ui/use-list-table';
import { COMPANY_SORTS, useCompanies, useCompanyBandTotal, type CompanyFilters as Filters } from '@/features/companies/api/get-companies';
import { COMPANY_COLUMNS, CompaniesTable } from '@/features/companies/components/companies-table';
import { CompanyCard } from '@/features/companies/components/company-card';
import { CompanyDetailDialog } from '@/features/companies/components/company-detail-dialog';
import { CompanyEditDialog } from '@/features/companies/components/company-edit-dialog';
import { BANDS, CompanyFilters } from '@/features/companies/components/company-filters';
import { CompanySelectionActions } from '@/features/companies/components/company-selection-actions';
import { ExportCompaniesButton } from '@/features/companies/components/export-companies-button';
import { SelectionBar } from '@/features/outreach/components/selection-bar';
import { SavedViews } from '@/features/views/components/saved-views';
import { formatTotal } from '@/lib/api-client';
import type { Company } from '@/types/api';

const PAGE_SIZE = 48;
const FILTER_KEYS = ['q', 'state', 'status', 'scoreBand'] as const;

/**
 * Company Prospects: band totals, filters, and the companies as a dense table sorted and paged by
 * the server (or as cards, `?view=cards`); ticked companies get a status, an export or deleted.
 */
export function CompaniesRoute() {
  const list = useListTable({
    table: 'companies',
    columns: COMPANY_COLUMNS.map((c) => c.key),
    filters: FILTER_KEYS,
    sorts: COMPANY_SORTS,
    // The server's own order: best score first.
    initial: { key: 'score', dir: 'desc' },
  });
  const { selection } = list;
  const [selected, setSelected] = useState<Company | null>(null);
  const [editing, setEditing] = useState<Company | null>(null);
  const filters: Filters = {
    ...list.filters,
    scoreBand: BANDS.find(([b]) => b === list.filters.scoreBand)?.[0] ?? '',
    ...list.serverSort,
    limit: PAGE_SIZE,
    offset: list.offset,
  };
  const companies = useCompanies(filters);
  const all = useCompanyBandTotal('');
  const high = useCompanyBandTotal('high');
  const medium = useCompanyBandTotal('medium');
  const low = useCompanyBandTotal('low');
  const total = companies.data ? formatTotal(companies.data) : undefined;
  const ids = [...selection.picked];
  const pickedLabel = `${ids.length.toLocaleString()} ${ids.length === 1 ? 'company' : 'companies'}`;

  const stat = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString());

  return (
    <div className="space-y-6">
      <title>Company Prospects · Prospector</title>
      <PageHeader title="Company Prospects" count={total} action={<ExportCompaniesButton filters={filters} total={total} />} />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatTile label="Total Companies" value={stat(all)} />
        <StatTile label="High Score (80+)" value={stat(high)} />
        <StatTile label="Medium (60–79)" value={stat(medium)} />
        <StatTile label="Low (below 60)" value={stat(low)} />
      </div>
      <CompanyFilters filters={filters} update={list.setFilter} />
      <div className="flex flex-wrap items-center gap-2">
        <ViewToggle view={list.view} onChange={list.setView} />
        <div className="ml-auto flex gap-2">
          <SavedViews screen="companies" current={list.viewState} onApply={list.applyView} />
          {list.view === 'table' ? <ColumnMenu columns={COMPANY_COLUMNS} shown={list.columns.shown} onToggle={list.columns.toggle} /> : null}
        </div>
      </div>
      {ids.length > 0 ? (
        <SelectionBar count={pickedLabel} onClear={selection.clear}>
          <CompanySelectionActions
            ids={ids}
            what={pickedLabel}
            onDone={selection.clear}
            onDeleted={() => list.afterDelete(companies.data?.items.map((c) => c.id) ?? [], PAGE_SIZE)}
          />
        </SelectionBar>
      ) : null}

      {companies.isPending ? (
        <Skeleton rows={4} label="Loading companies" />
      ) : companies.isError ? (
        <ErrorState title="Unable to load companies" error={companies.error} onRetry={() => void companies.refetch()} retryLabel="Refresh" />
      ) : companies.data.items.length === 0 ? (
        <EmptyState title={all === 0 ? 'No companies yet' : 'No companies match these filters'}>
          {all === 0 ? 'Companies found by discovery scans appear here.' : 'Try clearing a filter.'}
        </EmptyState>
      ) : (
        <>
          {list.view === 'table' ? (
            <CompaniesTable
              rows={companies.data.items}
              state={list}
              onEdit={setEditing}
              actions={(c) => (
                <span className="flex justify-end gap-3 text-xs font-semibold text-indigo-700">
                  <button type="button" onClick={() => setSelected(c)} aria-label={`Quick view ${c.name}`} className="hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
                    Quick view
                  </button>
                  <button type="button" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`} className="hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
                    Edit
                  </button>
                </span>
              )}
            />
          ) : (
            <ul aria-label="Companies" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {companies.data.items.map((c) => (
                <CompanyCard key={c.id} company={c} onOpen={() => setSelected(c)} onEdit={() => setEditing(c)} />
              ))}
            </ul>
          )}
          <Pager
            offset={list.offset}
            count={companies.data.items.length}
            total={companies.data.total}
            exact={companies.data.exact}
            pageSize={PAGE_SIZE}
            onOffsetChange={list.setOffset}
          />
        </>
      )}
      {editing ? <CompanyEditDialog company={editing} onClose={() => setEditing(null)} /> : null}
      {selected ? <CompanyDetailDialog id={selected.id} name={selected.name} onClose={() => setSelected(null)} /> : null}
    </div>
  );
}
