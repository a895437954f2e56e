import { Button } from '@/components/ui/button';

import type { WebhookEndpoint } from '../api/types';

type EndpointsListProps = {
  endpoints: WebhookEndpoint[];
  label: (type: string) => string;
  selectedId: string | null;
  busyId: string | null;
  onSelect: (endpoint: WebhookEndpoint) => void;
  onTest: (endpoint: WebhookEndpoint) => void;
  onToggle: (endpoint: WebhookEndpoint) => void;
  onRotate: (endpoint: WebhookEndpoint) => void;
  onDelete: (endpoint: WebhookEndpoint) => void;
};

/** The registered endpoints, each with its status, events and actions. */
export function EndpointsList({
  endpoints,
  label,
  selectedId,
  busyId,
  onSelect,
  onTest,
  onToggle,
  onRotate,
  onDelete,
}: EndpointsListProps) {
  return (
    <ul aria-label="Endpoints" className="space-y-3">
      {endpoints.map((e) => {
        const busy = busyId === e.id;
        const selected = selectedId === e.id;
        return (
          <li
            key={e.id}
            className={`rounded-xl bg-white p-4 shadow-xs ring-1 ${selected ? 'ring-2 ring-indigo-500' : 'ring-slate-200'}`}
          >
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h3 className="font-mono text-sm font-semibold break-all text-slate-900">{e.url}</h3>
                {e.description ? <p className="mt-0.5 text-sm text-slate-600">{e.description}</p> : null}
              </div>
              {e.enabled ? (
                <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-700">Enabled</span>
              ) : (
                <span className="rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-700">Disabled</span>
              )}
            </div>
            {!e.enabled && e.disabledReason ? <p className="mt-1 text-sm text-rose-700">{e.disabledReason}</p> : null}
            {e.enabled && e.failureStreak > 0 ? (
              <p className="mt-1 text-sm text-amber-800">
                {e.failureStreak === 1 ? '1 delivery' : `${e.failureStreak} deliveries`} in a row failed; 5 disable it.
              </p>
            ) : null}
            <p className="mt-2 text-xs text-slate-600">
              <span className="font-medium">Events:</span> {e.eventTypes.map(label).join(', ')}
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button size="sm" variant={selected ? 'primary' : 'secondary'} aria-pressed={selected} aria-label={`Deliveries of ${e.url}`} onClick={() => onSelect(e)}>
                Deliveries
              </Button>
              <Button size="sm" variant="secondary" disabled={!e.enabled || busy} aria-label={`Send test event to ${e.url}`} onClick={() => onTest(e)}>
                Send test event
              </Button>
              <Button size="sm" variant="secondary" disabled={busy} aria-label={`Rotate secret of ${e.url}`} onClick={() => onRotate(e)}>
                Rotate secret
              </Button>
              <Button size="sm" variant="secondary" disabled={busy} aria-label={`${e.enabled ? 'Disable' : 'Re-enable'} ${e.url}`} onClick={() => onToggle(e)}>
                {e.enabled ? 'Disable' : 'Re-enable'}
              </Button>
              <Button size="sm" variant="danger" disabled={busy} aria-label={`Delete ${e.url}`} onClick={() => onDelete(e)}>
                Delete
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
