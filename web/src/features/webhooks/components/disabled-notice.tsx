import { Button } from '@/components/ui/button';
import { formatWhen } from '@/lib/format';

import type { WebhookEndpoint } from '../api/types';

type DisabledNoticeProps = {
  endpoints: WebhookEndpoint[];
  onEnable: (endpoint: WebhookEndpoint) => void;
  busyId: string | null;
};

/** The endpoints that get no events: why, since when, and a way to turn each back on. */
export function DisabledNotice({ endpoints, onEnable, busyId }: DisabledNoticeProps) {
  const disabled = endpoints.filter((e) => !e.enabled);
  if (disabled.length === 0) return null;
  return (
    <section aria-labelledby="disabled-endpoints" className="rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="disabled-endpoints" className="font-semibold text-amber-900">
        {disabled.length === 1 ? '1 endpoint is disabled' : `${disabled.length} endpoints are disabled`}
      </h2>
      <p className="mt-1 text-sm text-amber-900">They receive no events until they are enabled again.</p>
      <ul className="mt-3 space-y-2">
        {disabled.map((e) => (
          <li key={e.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <div className="min-w-0">
              <p className="font-medium break-all text-slate-900">{e.url}</p>
              <p className="text-amber-900">
                {e.disabledReason ?? 'Disabled'}
                {e.disabledAt ? (
                  <>
                    {' · '}
                    <time dateTime={e.disabledAt}>{formatWhen(e.disabledAt)}</time>
                  </>
                ) : null}
              </p>
            </div>
            <Button size="sm" variant="secondary" disabled={busyId === e.id} onClick={() => onEnable(e)} aria-label={`Re-enable ${e.url}`}>
              Re-enable
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
