import { ScoreBadge } from '@/components/ui/score-badge';
import { CompanyLine } from '@/features/contacts/components/company-line';
import { formatDateTime } from '@/lib/format';
import type { Contact } from '@/types/api';

/** A customer in the list: name (opens the details), company, title, email and when added. */
export function CustomerCard({ customer: c, onOpen }: { customer: Contact; onOpen: () => void }) {
  const name = `${c.firstName} ${c.lastName}`;
  return (
    <li aria-label={name} className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-start justify-between gap-2">
        <button type="button" className="text-left font-semibold text-slate-900 hover:underline" onClick={onOpen}>
          {name}
        </button>
        <ScoreBadge score={c.score} />
      </div>
      <CompanyLine contact={c} className="text-sm" />
      <p className="text-sm text-slate-500">{c.title ?? 'No title'}</p>
      <p className="mt-2 truncate text-sm text-slate-600">{c.email ?? 'No email'}</p>
      <p className="mt-1 text-xs text-slate-500">Added {formatDateTime(c.createdAt)}</p>
    </li>
  );
}
