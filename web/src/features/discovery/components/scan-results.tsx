import { Fragment, useState } from 'react';

import { ScoreBadge } from '@/components/ui/score-badge';
import { EmptyState, StatTile } from '@/components/ui/states';
import { CompanyDetailDialog } from '@/features/companies/components/company-detail-dialog';
import { AddToSequenceDialog } from '@/features/outreach/components/add-to-sequence-dialog';
import { NewCampaignDialog } from '@/features/outreach/components/new-campaign-dialog';
import { SelectionBar } from '@/features/outreach/components/selection-bar';
import { contactTier, isExecutive } from '@/lib/rules';

import type { FoundCompany, ScanResult } from './scan-progress';

const TIER_LABEL = { executive: 'Executive', leadership: 'Leadership', staff: 'Staff' } as const;

/**
 * Companies the scan found, with their contacts in expandable rows (seed 000 §2.8). Ticked
 * companies' contacts can be added to a sequence in one action.
 */
export function ScanResults({ result }: { result: ScanResult }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [details, setDetails] = useState<FoundCompany | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [action, setAction] = useState<'enroll' | 'campaign' | null>(null);
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

  return (
    <section aria-label="Discovery results" className="space-y-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <StatTile label="Companies found" value={result.companies.length.toLocaleString()} />
        <StatTile label="High-quality leads (70+)" value={highQuality.toLocaleString()} />
        <StatTile label="Contacts found" value={result.contacts.length.toLocaleString()} />
      </div>
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
              <th scope="col" className="px-3 py-2">Company</th>
              <th scope="col" className="px-3 py-2">Location</th>
              <th scope="col" className="px-3 py-2">Score</th>
              <th scope="col" className="px-3 py-2">Contacts</th>
              <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {result.companies.map((company) => {
              const contacts = contactsOf(company.id);
              const expanded = open.has(company.id);
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
                      {company.name}
                      {company.isNew ? (
                        <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700">New</span>
                      ) : null}
                    </th>
                    <td className="px-3 py-2 text-slate-600">{[company.city, company.state].filter(Boolean).join(', ') || '—'}</td>
                    <td className="px-3 py-2">
                      <ScoreBadge score={company.score} />
                    </td>
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
                    <td className="px-3 py-2 text-right">
                      <button type="button" onClick={() => setDetails(company)} className="text-xs font-semibold text-indigo-700 hover:underline">
                        Details <span className="sr-only">of {company.name}</span>
                      </button>
                    </td>
                  </tr>
                  {expanded ? (
                    <tr id={`contacts-${company.id}`}>
                      <td colSpan={6} className="bg-slate-50 px-6 py-2">
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
