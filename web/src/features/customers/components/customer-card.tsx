import { ScoreBadge } from '@/components/ui/score-badge';
import { CompanyLine } from '@/features/contacts/components/company-line';
import { RecordLink } from '@/features/records/components/record-link';
import { formatDateTime } from '@/lib/format';
import type { Contact } from '@/types/api';

/** A customer in the list: name (its page), company, title, email and when added; Quick view opens the details. */
export function CustomerCard({ customer: c, onOpen }: { customer: Contact; onOpen: () => void }) {
  const name = `${c.firstName} ${c.lastName}`;
  return (
    <li aria-label={name} className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-start justify-between gap-2">
        <RecordLink type="contact" id={c.id} className="font-semibold text-slate-900 hover:underline">
          {name}
        </RecordLink>
        <ScoreBadge score={c.score} />
      </div>
      <CompanyLine contact={c} className="text-sm" />
      <p className="text-sm text-slate-500">{c.title ?? 'No title'}</p>
      <p className="mt-2 truncate text-sm text-slate-600">{c.email ?? 'No email'}</p>
      <div className="mt-1 flex items-center justify-between gap-2">
        <p className="text-xs text-slate-500">Added {formatDateTime(c.createdAt)}</p>
        <button
          type="button"
          onClick={onOpen}
          aria-label={`Quick view ${name}`}
          className="rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50"
        >
          Quick view
        </button>
      </div>
    </li>
  );
}
