import { useState } from 'react';

import { useUpdateCompany } from '@/features/companies/api/update-company';
import { serverMessageOr } from '@/lib/api-client';
import { formatRevenue } from '@/lib/rules';
import { toast } from '@/stores/toasts';

const inputClass =
  'w-32 rounded-md border-0 px-2 py-1 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 focus:outline-none aria-[invalid=true]:ring-rose-500';

/**
 * A company's revenue, edited where it is shown: the value is a button; Enter or Save writes the
 * whole dollars (empty: not disclosed), Escape or Cancel leaves it as it was.
 */
export function RevenueCell({ id, name, revenue }: { id: string; name: string; revenue: string | null }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateCompany({
    onSuccess: () => {
      setDraft(null);
      toast({ title: 'Company Updated', description: `Revenue of ${name} saved.`, variant: 'success' });
    },
    onError: (e) => toast({ title: 'Update Failed', description: serverMessageOr(e, 'Failed to update company'), variant: 'destructive' }),
  });

  if (draft === null) {
    return (
      <button
        type="button"
        onClick={() => setDraft(revenue ?? '')}
        aria-label={`${formatRevenue(revenue)}: edit revenue of ${name}`}
        className="tabular-nums text-slate-700 underline decoration-dotted hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {formatRevenue(revenue)}
      </button>
    );
  }
  const save = () => {
    const text = draft.replace(/[$,\s]/g, '');
    if (text !== '' && !/^\d+$/.test(text)) {
      setError('Enter the revenue as a whole number of dollars');
      return;
    }
    setError(null);
    update.mutate({ id, update: { revenue: text === '' ? null : Number(text) } });
  };
  const errorId = `revenue-error-${id}`;
  return (
    <form
      className="flex flex-wrap items-center gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <input
        aria-label={`Revenue of ${name} (USD)`}
        inputMode="numeric"
        autoFocus
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            setDraft(null);
            setError(null);
          }
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={inputClass}
      />
      <button type="submit" disabled={update.isPending} className="rounded px-1.5 py-0.5 text-xs font-semibold text-indigo-700 hover:bg-indigo-50">
        {update.isPending ? 'Saving…' : 'Save'}
      </button>
      <button
        type="button"
        onClick={() => {
          setDraft(null);
          setError(null);
        }}
        className="rounded px-1.5 py-0.5 text-xs text-slate-600 hover:bg-slate-100"
      >
        Cancel
      </button>
      {error ? (
        <p id={errorId} className="w-full text-xs text-rose-600">
          {error}
        </p>
      ) : null}
    </form>
  );
}
