import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { SourceBadges } from '@/components/ui/source-badges';
import { RecordLink } from '@/features/records/components/record-link';
import { formatRevenue } from '@/lib/rules';
import type { Company } from '@/types/api';

/** A company's revenue in millions; clicking it opens the edit dialog (seed 000 §2.8), on a card or in the table. */
export function RevenueButton({ company, onEdit }: { company: Company; onEdit: () => void }) {
  return (
    <button
      type="button"
      onClick={onEdit}
      aria-label={`Edit revenue of ${company.name}: ${formatRevenue(company.revenue)}`}
      className="text-slate-700 underline decoration-dotted hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      {formatRevenue(company.revenue)}
    </button>
  );
}

/** A company in the list: its name opens its page; quick view (its contacts by tier) or edit it (also by clicking its revenue). */
export function CompanyCard({ company, onOpen, onEdit }: { company: Company; onOpen: () => void; onEdit: () => void }) {
  return (
    <li className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-start justify-between gap-2">
        <h2 className="font-semibold text-slate-900">
          <RecordLink type="company" id={company.id}>
            {company.name}
          </RecordLink>
          <SourceBadges sources={company.sources} />
        </h2>
        <ScoreBadge score={company.score} />
      </div>
      <p className="mt-1 text-sm text-slate-500">{[company.industry, company.location].filter(Boolean).join(' · ') || '—'}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        <StatusPill status={company.status} />
        <RevenueButton company={company} onEdit={onEdit} />
        <span className="text-slate-500">
          {company.contactCount} {company.contactCount === 1 ? 'contact' : 'contacts'}
        </span>
      </div>
      <div className="mt-3 flex gap-2">
        <button
          type="button"
          onClick={onOpen}
          aria-label={`Quick view ${company.name}`}
          className="rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50"
        >
          Quick view
        </button>
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
