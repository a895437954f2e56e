import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatAge, formatMs, formatNumber } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useQueues } from '../api/get-queues';
import { useSetKindPaused } from '../api/set-kind-paused';
import { jobKindLabel } from '../kind-labels';

const countColumns = [
  'queued',
  'scheduled',
  'running',
  'retrying',
  'succeeded',
  'failed',
  'cancelled',
] as const;

const th = 'px-3 py-2 text-right text-xs font-semibold tracking-wide text-slate-600 uppercase';
const td = 'px-3 py-2 text-right tabular-nums';

export function QueueSummary() {
  const queues = useQueues();
  const setPaused = useSetKindPaused({
    onSuccess: ({ kind, paused }) =>
      toast({
        title: paused ? 'Kind paused' : 'Kind resumed',
        description: paused ? `No new ${kind} jobs start until it is resumed.` : `${kind} jobs run again.`,
        variant: 'success',
      }),
  });

  return (
    <section aria-labelledby="queue-summary-heading" className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h2 id="queue-summary-heading" className="text-base font-semibold">
          Queues
        </h2>
        {queues.isFetching && !queues.isPending ? (
          <span className="text-xs text-slate-400">refreshing…</span>
        ) : null}
      </div>
      {queues.isPending ? (
        <div className="p-4">
          <Spinner label="Loading queues" />
        </div>
      ) : queues.isError ? (
        <p role="alert" className="p-4 text-sm text-rose-700">
          Could not load queues: {errorMessage(queues.error)}
        </p>
      ) : null}
      {setPaused.error ? (
        <p role="alert" className="px-4 pb-3 text-sm text-rose-700">
          {errorMessage(setPaused.error)}
        </p>
      ) : null}
      {queues.isPending || queues.isError ? null : queues.data.length === 0 ? (
        <p className="p-4 text-sm text-slate-500">No jobs have been queued yet.</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="min-w-full text-sm" aria-labelledby="queue-summary-heading">
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={`${th} text-left`}>
                  Kind
                </th>
                {countColumns.map((c) => (
                  <th key={c} scope="col" className={th}>
                    {c}
                  </th>
                ))}
                <th scope="col" className={th}>
                  Oldest queued
                </th>
                <th scope="col" className={th}>
                  Per minute
                </th>
                <th scope="col" className={th}>
                  p50
                </th>
                <th scope="col" className={th}>
                  p95
                </th>
                <th scope="col" className={th}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {queues.data.map((q) => (
                <tr key={q.kind}>
                  <th scope="row" className="px-3 py-2 text-left text-sm font-medium">
                    {jobKindLabel(q.kind)}
                    <span className="block font-mono text-xs font-normal text-slate-500">{q.kind}</span>
                    {q.paused ? (
                      <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 font-sans text-xs font-semibold text-amber-800">
                        paused
                      </span>
                    ) : null}
                  </th>
                  {countColumns.map((c) => (
                    <td
                      key={c}
                      className={`${td} ${q[c] > 0 && c === 'failed' ? 'font-semibold text-rose-700' : ''}`}
                    >
                      {formatNumber(q[c])}
                    </td>
                  ))}
                  <td className={td}>{formatAge(q.oldestQueuedAgeSeconds)}</td>
                  <td className={td}>{formatNumber(q.throughputPerMinute)}</td>
                  <td className={td}>{formatMs(q.p50RunMs)}</td>
                  <td className={td}>{formatMs(q.p95RunMs)}</td>
                  <td className={td}>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`${q.paused ? 'Resume' : 'Pause'} ${jobKindLabel(q.kind)}`}
                      disabled={setPaused.isPending}
                      onClick={() => setPaused.mutate({ kind: q.kind, paused: !q.paused })}
                    >
                      {q.paused ? 'Resume' : 'Pause'}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
