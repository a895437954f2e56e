import { Fragment, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { serverMessageOr } from '@/lib/api-client';
import { formatMs, formatWhen } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useWebhookDeliveries } from '../api/get-deliveries';
import { useRedeliver } from '../api/redeliver';
import type { DeliveryStatus, WebhookAttempt, WebhookEndpoint } from '../api/types';

export const DELIVERIES_PAGE = 20;

const STATUS_STYLE: Record<DeliveryStatus, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'bg-amber-50 text-amber-800' },
  delivered: { label: 'Delivered', className: 'bg-emerald-50 text-emerald-700' },
  failed: { label: 'Failed', className: 'bg-rose-50 text-rose-700' },
};

function AttemptList({ attempts }: { attempts: WebhookAttempt[] }) {
  if (attempts.length === 0) return <p className="text-sm text-slate-600">No attempt yet.</p>;
  return (
    <ol className="space-y-2">
      {attempts.map((a, i) => (
        <li key={a.id} className="rounded-md bg-white p-2 text-sm ring-1 ring-slate-200">
          <p className="flex flex-wrap gap-x-3 gap-y-1">
            <span className="font-medium text-slate-900">Attempt {i + 1}</span>
            <time dateTime={a.attemptedAt} className="text-slate-600">
              {formatWhen(a.attemptedAt)}
            </time>
            <span className="text-slate-700">{a.statusCode == null ? 'No answer' : `HTTP ${a.statusCode}`}</span>
            <span className="text-slate-600">{formatMs(a.durationMs)}</span>
          </p>
          {a.error ? <p className="mt-1 break-words text-rose-700">{a.error}</p> : null}
          {a.response ? (
            <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs break-all whitespace-pre-wrap text-slate-700">
              {a.response}
            </pre>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

type DeliveriesTableProps = { endpoint: WebhookEndpoint; label: (type: string) => string };

/** An endpoint's deliveries, newest first; each row opens to its attempts and can be sent again. */
export function DeliveriesTable({ endpoint, label }: DeliveriesTableProps) {
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const deliveries = useWebhookDeliveries(endpoint.id, { limit: DELIVERIES_PAGE, offset });
  const redeliver = useRedeliver({
    onSuccess: () => toast({ title: 'Delivery queued again', description: 'It goes out with the same webhook-id.', variant: 'success' }),
    onError: (error) =>
      toast({ title: 'Could not redeliver', description: serverMessageOr(error, 'Redelivery failed'), variant: 'destructive' }),
  });

  if (deliveries.isPending) return <Skeleton rows={2} label="Loading deliveries" />;
  if (deliveries.isError) {
    return <ErrorState title="Failed to load deliveries" error={deliveries.error} onRetry={() => void deliveries.refetch()} />;
  }
  const page = deliveries.data;
  if (page.total === 0) {
    return (
      <EmptyState title="No deliveries yet">
        Events this endpoint subscribes to appear here as they happen; a test event shows how it answers.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-3">
      <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Deliveries</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">Event</th>
              <th scope="col" className="px-3 py-2">Status</th>
              <th scope="col" className="px-3 py-2">Attempts</th>
              <th scope="col" className="px-3 py-2">Created</th>
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {page.items.map((d) => {
              const expanded = open === d.id;
              const detailId = `attempts-${d.id}`;
              const style = STATUS_STYLE[d.status];
              const n = d.attempts.length;
              return (
                <Fragment key={d.id}>
                  <tr>
                    <td className="px-3 py-2">
                      <p className="font-medium text-slate-900">{label(d.eventType)}</p>
                      <p className="font-mono text-xs break-all text-slate-500">{d.id}</p>
                    </td>
                    <td className="px-3 py-2">
                      <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${style.className}`}>{style.label}</span>
                      {d.status === 'pending' && d.nextAttemptAt ? (
                        <p className="mt-1 text-xs text-slate-600">
                          Next try <time dateTime={d.nextAttemptAt}>{formatWhen(d.nextAttemptAt)}</time>
                        </p>
                      ) : null}
                      {d.status === 'failed' && d.lastError ? (
                        <p className="mt-1 text-xs break-words text-rose-700">{d.lastError}</p>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-expanded={expanded}
                        aria-controls={expanded ? detailId : undefined}
                        aria-label={`${n === 1 ? '1 attempt' : `${n} attempts`} of ${d.id}`}
                        onClick={() => setOpen(expanded ? null : d.id)}
                      >
                        {n === 1 ? '1 attempt' : `${n} attempts`} {expanded ? '▴' : '▾'}
                      </Button>
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap text-slate-600">
                      <time dateTime={d.createdAt}>{formatWhen(d.createdAt)}</time>
                    </td>
                    <td className="px-3 py-2 text-right">
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={`Redeliver ${d.id}`}
                        title={
                          d.status === 'pending'
                            ? 'Still being tried'
                            : !endpoint.enabled
                              ? 'Enable the endpoint first'
                              : undefined
                        }
                        disabled={
                          d.status === 'pending' ||
                          !endpoint.enabled ||
                          (redeliver.isPending && redeliver.variables.deliveryId === d.id)
                        }
                        onClick={() => redeliver.mutate({ endpointId: endpoint.id, deliveryId: d.id })}
                      >
                        Redeliver
                      </Button>
                    </td>
                  </tr>
                  {expanded ? (
                    <tr id={detailId}>
                      <td colSpan={5} className="bg-slate-50 px-3 py-3">
                        <AttemptList attempts={d.attempts} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager offset={offset} count={page.items.length} total={page.total} exact={page.exact} pageSize={DELIVERIES_PAGE} onOffsetChange={setOffset} />
    </div>
  );
}
