import { Fragment, useState } from 'react';

import { ScoreBadge } from '@/components/ui/score-badge';
import { SourceBadges } from '@/components/ui/source-badges';
import { EmptyState, StatTile } from '@/components/ui/states';
import { ColumnMenu, SortHeader, sortRows, useColumns, useSort, type SortDir } from '@/components/ui/table-tools';
import { CompanyDetailDialog } from '@/features/companies/components/company-detail-dialog';
import { AddToSequenceDialog } from '@/features/outreach/components/add-to-sequence-dialog';
import { NewCampaignDialog } from '@/features/outreach/components/new-campaign-dialog';
import { SelectionBar } from '@/features/outreach/components/selection-bar';
import { RecordLink } from '@/features/records/components/record-link';
import { SavedViews } from '@/features/views/components/saved-views';
import { compatibilityLabel, contactTier, isExecutive } from '@/lib/rules';
import type { Company } from '@/types/api';

import { useScanCompanies } from '../api/get-scan-companies';
import { RevenueCell } from './revenue-cell';
import type { FoundCompany, ScanResult } from './scan-progress';
import { ScanSources, TerritoryInsight } from './scan-sources';

const TIER_LABEL = { executive: 'Executive', leadership: 'Leadership', staff: 'Staff' } as const;

/** The columns a user may hide; the company's name and the row's actions always show. */
const COLUMNS = [
  { key: 'location', label: 'Location' },
  { key: 'industry', label: 'Industry' },
  { key: 'revenue', label: 'Revenue' },
  { key: 'score', label: 'Score' },
  { key: 'compatibility', label: 'Compatibility' },
  { key: 'contacts', label: 'Contacts' },
] as const;
type Column = (typeof COLUMNS)[number]['key'];
type SortKey = Column | 'name';

/** Seed 000 §2.8: "High Potential" when the partnership estimate is above 80. */
function highPotential(c: Company | undefined): boolean {
  return (c?.competitiveAnalysis?.partnershipOpportunity ?? 0) > 80;
}

/**
 * Companies the scan found, as a dense table (seed 000 §2.8, issue 23): sortable columns, a column
 * chooser, revenue edited in place, each name linking to the company's page, and the contacts in
 * expandable rows. Ticked companies' contacts can be added to a sequence or a campaign at once.
 */
export function ScanResults({ result }: { result: ScanResult }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [details, setDetails] = useState<FoundCompany | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [action, setAction] = useState<'enroll' | 'campaign' | null>(null);
  const sorting = useSort<SortKey>({ key: 'score', dir: 'desc' });
  const { sort, toggle: onSort } = sorting;
  const columns = useColumns<Column>('discovery-results', COLUMNS.map((c) => c.key));
  const current = useScanCompanies(result.companies.map((c) => c.id)).data;
  const contactsOf = (id: string) => result.contacts.filter((c) => c.companyId === id);
  const highQuality = result.companies.filter((c) => c.score >= 70).length;

  if (result.companies.length === 0) {
    return <EmptyState title="No companies found">Try another region, revenue range or company type.</EmptyState>;
  }
  const flip = (set: Set<string>, id: string) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  };
  const allPicked = picked.size === result.companies.length;
  const pickedLabel = `${picked.size.toLocaleString()} ${picked.size === 1 ? 'company' : 'companies'}`;
  const toggle = (id: string) => setOpen((previous) => flip(previous, id));
  const rows = sortRows(result.companies, sort, (c, key) => {
    const now = current?.get(c.id);
    switch (key) {
      case 'name':
        return c.name;
      case 'location':
        return [c.state, c.city].filter(Boolean).join(' ') || null;
      case 'industry':
        return now?.industry ?? null;
      case 'revenue':
        return now?.revenue ? Number(now.revenue) : null;
      case 'score':
        return now?.score ?? c.score;
      case 'compatibility':
        return now?.competitorAlignment ?? null;
      case 'contacts':
        return contactsOf(c.id).length;
    }
  });
  const shown = columns.shown;
  const span = 3 + COLUMNS.filter((c) => shown(c.key)).length;

  return (
    <section aria-label="Discovery results" className="space-y-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <StatTile label="Companies found" value={result.companies.length.toLocaleString()} />
        <StatTile label="High-quality leads (70+)" value={highQuality.toLocaleString()} />
        <StatTile label="Contacts found" value={result.contacts.length.toLocaleString()} />
      </div>
      {result.sources ? <ScanSources sources={result.sources} /> : null}
      {result.territoryInsights ? <TerritoryInsight insight={result.territoryInsights} /> : null}
      {result.budgetExhausted ? (
        <p className="text-sm text-amber-800">The scan reached its time budget; these are the companies found until then.</p>
      ) : null}
      {picked.size > 0 ? (
        <SelectionBar
          count={pickedLabel}
          onAddToSequence={() => setAction('enroll')}
          onNewCampaign={() => setAction('campaign')}
          onClear={() => setPicked(new Set())}
        />
      ) : null}
      <div className="flex justify-end gap-2">
        <SavedViews
          screen="discovery-results"
          current={() => ({ hidden: [...columns.hidden], sort })}
          onApply={(v) => {
            columns.set(Array.isArray(v.hidden) ? v.hidden.map(String) : []);
            const saved = v.sort as { key?: string; dir?: SortDir } | undefined;
            if (saved?.key && (saved.dir === 'asc' || saved.dir === 'desc')) sorting.set({ key: saved.key as SortKey, dir: saved.dir });
          }}
        />
        <ColumnMenu columns={COLUMNS} shown={shown} onToggle={columns.toggle} />
      </div>
      <div className="relative overflow-x-auto rounded-lg ring-1 ring-slate-200">
        <table className="min-w-full divide-y divide-slate-200 bg-white text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase text-slate-500">
            <tr>
              <th scope="col" className="w-8 px-3 py-2">
                <input
                  type="checkbox"
                  className="size-4"
                  aria-label="Select all companies"
                  checked={allPicked}
                  onChange={() => setPicked(allPicked ? new Set() : new Set(result.companies.map((c) => c.id)))}
                />
              </th>
              <SortHeader column="name" sort={sort} onSort={onSort}>
                Company
              </SortHeader>
              {shown('location') ? (
                <SortHeader column="location" sort={sort} onSort={onSort}>
                  Location
                </SortHeader>
              ) : null}
              {shown('industry') ? (
                <SortHeader column="industry" sort={sort} onSort={onSort}>
                  Industry
                </SortHeader>
              ) : null}
              {shown('revenue') ? (
                <SortHeader column="revenue" sort={sort} onSort={onSort} firstDir="desc">
                  Revenue
                </SortHeader>
              ) : null}
              {shown('score') ? (
                <SortHeader column="score" sort={sort} onSort={onSort} firstDir="desc">
                  Score
                </SortHeader>
              ) : null}
              {shown('compatibility') ? (
                <SortHeader column="compatibility" sort={sort} onSort={onSort} firstDir="desc">
                  Compatibility
                </SortHeader>
              ) : null}
              {shown('contacts') ? (
                <SortHeader column="contacts" sort={sort} onSort={onSort} firstDir="desc">
                  Contacts
                </SortHeader>
              ) : null}
              <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((company) => {
              const contacts = contactsOf(company.id);
              const expanded = open.has(company.id);
              const now = current?.get(company.id);
              return (
                <Fragment key={company.id}>
                  <tr data-company-id={company.id}>
                    <td className="px-3 py-2">
                      <input
                        type="checkbox"
                        className="size-4"
                        aria-label={`Select ${company.name}`}
                        checked={picked.has(company.id)}
                        onChange={() => setPicked((prev) => flip(prev, company.id))}
                      />
                    </td>
                    <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">
                      <RecordLink type="company" id={company.id}>
                        {company.name}
                      </RecordLink>
                      <SourceBadges sources={company.sources} />
                      {company.isNew ? (
                        <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700">New</span>
                      ) : null}
                      {highPotential(now) ? (
                        <span className="ml-2 rounded bg-violet-50 px-1.5 py-0.5 text-xs text-violet-700">High Potential</span>
                      ) : null}
                    </th>
                    {shown('location') ? (
                      <td className="px-3 py-2 text-slate-600">{[company.city, company.state].filter(Boolean).join(', ') || '—'}</td>
                    ) : null}
                    {shown('industry') ? <td className="px-3 py-2 text-slate-600">{now?.industry ?? '—'}</td> : null}
                    {shown('revenue') ? (
                      <td className="px-3 py-2">{now ? <RevenueCell id={company.id} name={company.name} revenue={now.revenue ?? null} /> : '…'}</td>
                    ) : null}
                    {shown('score') ? (
                      <td className="px-3 py-2">
                        <ScoreBadge score={now?.score ?? company.score} />
                      </td>
                    ) : null}
                    {shown('compatibility') ? (
                      <td className="px-3 py-2 text-slate-600">
                        {now?.competitorAlignment === null || now?.competitorAlignment === undefined ? '—' : compatibilityLabel(now.competitorAlignment)}
                      </td>
                    ) : null}
                    {shown('contacts') ? (
                    <td className="px-3 py-2">
                      <button
                        type="button"
                        aria-expanded={expanded}
                        aria-controls={`contacts-${company.id}`}
                        onClick={() => toggle(company.id)}
                        className="text-indigo-700 hover:underline"
                      >
                        {contacts.length} {contacts.length === 1 ? 'contact' : 'contacts'}{' '}
                        <span className="sr-only">of {company.name}</span>
                      </button>
                    </td>
                    ) : null}
                    <td className="px-3 py-2 text-right">
                      <button type="button" onClick={() => setDetails(company)} className="text-xs font-semibold text-indigo-700 hover:underline">
                        Details <span className="sr-only">of {company.name}</span>
                      </button>
                    </td>
                  </tr>
                  {expanded ? (
                    <tr id={`contacts-${company.id}`}>
                      <td colSpan={span} className="bg-slate-50 px-6 py-2">
                        {contacts.length === 0 ? (
                          <p className="text-slate-500">No contacts found for this company.</p>
                        ) : (
                          <ul aria-label={`Contacts of ${company.name}`} className="space-y-1">
                            {contacts.map((c) => (
                              <li key={c.id} className="flex flex-wrap items-center gap-2">
                                <span className="font-medium">
                                  {c.firstName} {c.lastName}
                                </span>
                                <span className="text-slate-500">{c.title ?? '—'}</span>
                                <span className="rounded bg-slate-200 px-1.5 text-xs">{TIER_LABEL[contactTier(c.title)]}</span>
                                {isExecutive(c.title) ? (
                                  <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">Executive</span>
                                ) : null}
                                <ScoreBadge score={c.score} />
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {action === 'enroll' ? (
        <AddToSequenceDialog selection={{ companyIds: [...picked] }} label={`The contacts of ${pickedLabel}`} onClose={() => setAction(null)} />
      ) : null}
      {action === 'campaign' ? (
        <NewCampaignDialog selection={{ companyIds: [...picked] }} label={`The contacts of ${pickedLabel}`} onClose={() => setAction(null)} />
      ) : null}
      {details ? <CompanyDetailDialog id={details.id} name={details.name} onClose={() => setDetails(null)} /> : null}
    </section>
  );
}
