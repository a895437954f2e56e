import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Pager } from '@/components/ui/pager';
import { EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { useCompanies, useCompanyBandTotal, type CompanyFilters as Filters } from '@/features/companies/api/get-companies';
import { CompanyCard } from '@/features/companies/components/company-card';
import { CompanyDetailDialog } from '@/features/companies/components/company-detail-dialog';
import { CompanyEditDialog } from '@/features/companies/components/company-edit-dialog';
import { BANDS, CompanyFilters } from '@/features/companies/components/company-filters';
import type { Company } from '@/types/api';

const PAGE_SIZE = 48;

export function CompaniesRoute() {
  const [params, setParams] = useSearchParams();
  const [selected, setSelected] = useState<Company | null>(null);
  const [editing, setEditing] = useState<Company | null>(null);
  const filters: Filters = {
    q: params.get('q') ?? '',
    state: params.get('state') ?? '',
    status: params.get('status') ?? '',
    scoreBand: BANDS.find(([b]) => b === params.get('scoreBand'))?.[0] ?? '',
    limit: PAGE_SIZE,
    offset: Number(params.get('offset')) || 0,
  };
  const companies = useCompanies(filters);
  const all = useCompanyBandTotal('');
  const high = useCompanyBandTotal('high');
  const medium = useCompanyBandTotal('medium');
  const low = useCompanyBandTotal('low');

  const update = (key: string, value: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'offset') next.delete('offset');
      return next;
    });

  const stat = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString());

  return (
    <div className="space-y-6">
      <title>Company Prospects · Prospector</title>
      <h1 className="text-2xl font-bold tracking-tight">Company Prospects</h1>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatTile label="Total Companies" value={stat(all)} />
        <StatTile label="High Score (80+)" value={stat(high)} />
        <StatTile label="Medium (60–79)" value={stat(medium)} />
        <StatTile label="Low (below 60)" value={stat(low)} />
      </div>
      <CompanyFilters filters={filters} update={update} />

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
          <ul aria-label="Companies" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {companies.data.items.map((c) => (
              <CompanyCard key={c.id} company={c} onOpen={() => setSelected(c)} onEdit={() => setEditing(c)} />
            ))}
          </ul>
          <Pager
            offset={filters.offset}
            count={companies.data.items.length}
            total={companies.data.total}
            exact={companies.data.exact}
            pageSize={PAGE_SIZE}
            onOffsetChange={(o) => update('offset', o ? String(o) : '')}
          />
        </>
      )}
      {editing ? <CompanyEditDialog company={editing} onClose={() => setEditing(null)} /> : null}
      {selected ? <CompanyDetailDialog id={selected.id} name={selected.name} onClose={() => setSelected(null)} /> : null}
    </div>
  );
}
