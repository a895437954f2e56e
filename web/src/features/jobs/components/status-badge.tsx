import type { JobStatus } from '@/types/api';

const styles: Record<JobStatus, string> = {
  queued: 'bg-slate-100 text-slate-700 ring-slate-300',
  scheduled: 'bg-sky-50 text-sky-700 ring-sky-200',
  running: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
  retrying: 'bg-amber-50 text-amber-800 ring-amber-200',
  succeeded: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  failed: 'bg-rose-50 text-rose-700 ring-rose-200',
  cancelled: 'bg-zinc-100 text-zinc-600 ring-zinc-300',
};

export function StatusBadge({ status }: { status: JobStatus }) {
  return (
    <span
      data-status={status}
      className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium capitalize ring-1 ring-inset ${styles[status]}`}
    >
      {status}
    </span>
  );
}
