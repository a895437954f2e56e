import { formatDateTime, formatMs } from '@/lib/format';

import { useJobOpsDetail } from '../api/get-job-ops-detail';

/** The job's payload and each attempt: worker, times, run time, outcome and error. */
export function JobAttempts({ jobId, live }: { jobId: string; live: boolean }) {
  const detail = useJobOpsDetail(jobId, live);
  if (!detail.data) return null;
  const { payload, attemptHistory } = detail.data;
  return (
    <>
      <div>
        <h3 className="mb-1.5 text-sm font-medium text-slate-700">Payload</h3>
        <pre aria-label="Job payload" className="max-h-48 overflow-auto rounded-md bg-slate-50 p-3 text-xs text-slate-800 ring-1 ring-slate-200">
          {JSON.stringify(payload, null, 2)}
        </pre>
      </div>
      <div>
        <h3 className="mb-1.5 text-sm font-medium text-slate-700">Attempts</h3>
        {attemptHistory.length === 0 ? (
          <p className="text-sm text-slate-500">No attempt has finished yet.</p>
        ) : (
          <ol aria-label="Attempts" className="space-y-2 text-xs">
            {attemptHistory.map((a) => (
              <li key={a.attempt} className="rounded-md p-2 ring-1 ring-slate-200">
                <p className="flex flex-wrap justify-between gap-2">
                  <span className="font-semibold">
                    #{a.attempt} {a.outcome}
                  </span>
                  <span className="text-slate-500">
                    {a.startedAt ? formatMs(Date.parse(a.finishedAt) - Date.parse(a.startedAt)) : '—'} · {formatDateTime(a.finishedAt)}
                  </span>
                </p>
                {a.workerId ? <p className="font-mono text-slate-500">{a.workerId}</p> : null}
                {a.error ? <p className="text-rose-700">{a.error}</p> : null}
              </li>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}
