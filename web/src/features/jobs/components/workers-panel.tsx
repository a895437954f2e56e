import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';

import { useWorkers } from '../api/get-workers';

/** Every worker process: alive or not by its heartbeat, what it runs and how much of it. */
export function WorkersPanel() {
  const workers = useWorkers();
  return (
    <section aria-labelledby="workers-heading" className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <h2 id="workers-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
        Workers
      </h2>
      {workers.isPending ? (
        <div className="p-4">
          <Spinner label="Loading workers" />
        </div>
      ) : workers.isError ? (
        <p role="alert" className="p-4 text-sm text-rose-700">
          Could not load workers: {errorMessage(workers.error)}
        </p>
      ) : workers.data.length === 0 ? (
        <p className="p-4 text-sm text-slate-500">No worker has started yet: jobs wait until one does.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {workers.data.map((w) => (
            <li key={w.id} aria-label={`Worker ${w.hostname}:${w.pid}`} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2">
              <div className="min-w-0">
                <p className="font-mono">
                  {w.hostname}:{w.pid}
                </p>
                <p className="text-xs text-slate-500">
                  {w.kinds.join(', ')} · {w.concurrency} at once · started {formatDateTime(w.startedAt)}
                </p>
              </div>
              <div className="text-right">
                <span
                  className={`rounded px-1.5 py-0.5 text-xs font-semibold ${w.alive ? 'bg-emerald-100 text-emerald-800' : 'bg-rose-100 text-rose-800'}`}
                >
                  {w.alive ? 'alive' : 'silent'}
                </span>
                <p className="text-xs text-slate-500">
                  {w.runningJobs} running · last heartbeat <time dateTime={w.heartbeatAt}>{formatDateTime(w.heartbeatAt)}</time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
