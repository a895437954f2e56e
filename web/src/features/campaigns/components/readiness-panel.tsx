import { ErrorState } from '@/components/ui/states';

import { useReadiness } from '../api/get-readiness';

const TITLES: Record<string, string> = {
  postal_address: 'Postal address',
  sender: 'Sender address',
  limits: 'Sending limits',
  delivery: 'Delivery',
  links: 'Unsubscribe and tracking links',
};

/** What must be in order before email is sent for real, each line in words a person can act on. */
export function ReadinessPanel() {
  const readiness = useReadiness();
  const r = readiness.data;
  return (
    <section aria-labelledby="readiness-heading" className="space-y-2 rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <h2 id="readiness-heading" className="font-semibold text-slate-900">
        Sending readiness
      </h2>
      {readiness.isError ? (
        <ErrorState title="Could not check readiness" error={readiness.error} onRetry={() => readiness.refetch()} />
      ) : !r ? (
        <p className="text-sm text-slate-500">Checking…</p>
      ) : (
        <>
          <p className={`text-sm font-medium ${r.sendBlocked ? 'text-rose-700' : r.ready ? 'text-emerald-700' : 'text-amber-800'}`}>
            {r.sendBlocked ? `Sending is blocked: ${r.sendBlocked}` : r.ready ? 'Ready to send real email.' : 'Some settings need attention before real email goes out.'}
          </p>
          <ul aria-label="Readiness checks" className="space-y-1 text-sm">
            {r.items.map((i) => (
              <li key={i.item} data-ok={i.ok} className="flex gap-2">
                <span aria-hidden className={i.ok ? 'text-emerald-600' : 'text-amber-600'}>
                  {i.ok ? '✓' : '!'}
                </span>
                <span>
                  <span className="font-medium">{TITLES[i.item] ?? i.item}</span>
                  <span className="sr-only">{i.ok ? ' (in order)' : ' (needs attention)'}</span>: {i.message}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
