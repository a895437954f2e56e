import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { inputClass, Field } from '@/components/ui/field';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import {
  getCompaniesQueryOptions,
  useCompanies,
  type CompanyFilters,
} from '@/features/companies/api/get-companies';
import { CompanyDetailDialog } from '@/features/companies/components/company-detail-dialog';
import { CompanyEditDialog } from '@/features/companies/components/company-edit-dialog';
import { formatRevenue } from '@/lib/rules';
import type { Company } from '@/types/api';

const PAGE_SIZE = 48;
const STATUSES = ['discovered', 'prospect', 'qualified', 'contacted', 'interested', 'partner', 'not_interested'];
const STATES = [
  ['TX', 'Texas'],
  ['LA', 'Louisiana'],
  ['AR', 'Arkansas'],
  ['MS', 'Mississippi'],
  ['NM', 'New Mexico'],
  ['OK', 'Oklahoma'],
  ['AZ', 'Arizona'],
];
const BANDS = [
  ['high', 'High (80+)'],
  ['medium', 'Medium (60–79)'],
  ['low', 'Low (below 60)'],
] as const;

/** A band's total: one row fetched, the count read from X-Total-Count. */
function useBandTotal(scoreBand: CompanyFilters['scoreBand']) {
  return useQuery(getCompaniesQueryOptions({ scoreBand, limit: 1, offset: 0 })).data?.total;
}

function CompanyCard({ company, onOpen, onEdit }: { company: Company; onOpen: () => void; onEdit: () => void }) {
  return (
    <li className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-start justify-between gap-2">
        <h2 className="font-semibold text-slate-900">
          <button type="button" onClick={onOpen} className="text-left hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
            {company.name}
          </button>
        </h2>
        <ScoreBadge score={company.score} />
      </div>
      <p className="mt-1 text-sm text-slate-500">{[company.industry, company.location].filter(Boolean).join(' · ') || '—'}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        <StatusPill status={company.status} />
        {/* Clicking the revenue opens the edit dialog (seed 000 §2.8). */}
        <button
          type="button"
          onClick={onEdit}
          aria-label={`Edit revenue of ${company.name}: ${formatRevenue(company.revenue)}`}
          className="text-slate-700 underline decoration-dotted hover:text-indigo-700"
        >
          {formatRevenue(company.revenue)}
        </button>
        <span className="text-slate-500">
          {company.contactCount} {company.contactCount === 1 ? 'contact' : 'contacts'}
        </span>
      </div>
      <div className="mt-3">
        <button
          type="button"
          onClick={onEdit}
          aria-label={`Edit ${company.name}`}
          className="rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50"
        >
          Edit
        </button>
      </div>
    </li>
  );
}

export function CompaniesRoute() {
  const [params, setParams] = useSearchParams();
  const [selected, setSelected] = useState<Company | null>(null);
  const [editing, setEditing] = useState<Company | null>(null);
  const filters: CompanyFilters = {
    q: params.get('q') ?? '',
    state: params.get('state') ?? '',
    status: params.get('status') ?? '',
    scoreBand: BANDS.find(([b]) => b === params.get('scoreBand'))?.[0] ?? '',
    limit: PAGE_SIZE,
    offset: Number(params.get('offset')) || 0,
  };
  const companies = useCompanies(filters);
  const all = useBandTotal('');
  const high = useBandTotal('high');
  const medium = useBandTotal('medium');
  const low = useBandTotal('low');

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
      <form role="search" aria-label="Filter companies" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search">
          <SearchInput
            className={inputClass}
            placeholder="Name, industry, city or state"
            value={filters.q ?? ''}
            onSearch={(q) => update('q', q)}
          />
        </Field>
        <Field label="State">
          <select className={inputClass} value={filters.state} onChange={(e) => update('state', e.target.value)}>
            <option value="">All states</option>
            {STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Status">
          <select className={inputClass} value={filters.status} onChange={(e) => update('status', e.target.value)}>
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Score">
          <select className={inputClass} value={filters.scoreBand} onChange={(e) => update('scoreBand', e.target.value)}>
            <option value="">All scores</option>
            {BANDS.map(([band, label]) => (
              <option key={band} value={band}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </form>

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
