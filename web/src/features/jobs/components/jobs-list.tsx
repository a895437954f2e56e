import { useId } from 'react';

import { Button } from '@/components/ui/button';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { isOneOf } from '@/lib/guards';
import { JOB_KINDS, JOB_STATUSES, type JobStatus } from '@/types/api';

import { JOBS_PAGE_SIZE, useJobs } from '../api/get-jobs';
import { useQueues } from '../api/get-queues';
import { jobKindLabel } from '../kind-labels';

import { BulkActions } from './bulk-actions';
import { StatusBadge } from './status-badge';

export type JobsFilters = {
  kind: string;
  status: JobStatus | '';
  /** Text in the payload or the error. */
  q: string;
  page: number;
};

type JobsListProps = {
  filters: JobsFilters;
  onFiltersChange: (filters: Partial<JobsFilters>) => void;
  selectedJobId: string | null;
  onSelectJob: (id: string) => void;
};

const th = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase';

export function JobsList({ filters, onFiltersChange, selectedJobId, onSelectJob }: JobsListProps) {
  const id = useId();
  const offset = (filters.page - 1) * JOBS_PAGE_SIZE;
  const jobs = useJobs({
    kind: filters.kind || undefined,
    status: filters.status || undefined,
    q: filters.q || undefined,
    limit: JOBS_PAGE_SIZE,
    offset,
  });
  const queues = useQueues();

  const kinds = Array.from(
    new Set([...(queues.data?.map((q) => q.kind) ?? []), 'noop', ...(filters.kind ? [filters.kind] : [])]),
  ).sort();

  const total = jobs.data?.total ?? 0;
  const rows = jobs.data?.jobs ?? [];
  const lastPage = Math.max(1, Math.ceil(total / JOBS_PAGE_SIZE));
  const from = rows.length === 0 ? 0 : offset + 1;
  const to = offset + rows.length;

  const selectClass =
    'mt-1 block w-40 rounded-md border-0 bg-white py-1.5 pr-8 pl-2.5 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none';

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div>
          <h2 id={`${id}-heading`} className="text-base font-semibold">
            Jobs
          </h2>
          <p className="text-sm text-slate-500" aria-live="polite">
            {jobs.isPending ? 'Loading…' : `Total: ${total.toLocaleString()}`}
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={`${id}-q`} className="block text-xs font-medium text-slate-700">
              Payload or error
            </label>
            <SearchInput
              id={`${id}-q`}
              value={filters.q}
              onSearch={(q) => onFiltersChange({ q, page: 1 })}
              placeholder="e.g. Dallas, timeout"
              className={selectClass}
            />
          </div>
          <div>
            <label htmlFor={`${id}-kind`} className="block text-xs font-medium text-slate-700">
              Kind
            </label>
            <Select
              id={`${id}-kind`}
              className="mt-1 w-40"
              value={filters.kind}
              onValueChange={(kind) => onFiltersChange({ kind, page: 1 })}
              options={[['', 'All kinds'], ...kinds.map((k) => [k, jobKindLabel(k)] as const)]}
            />
          </div>
          <div>
            <label htmlFor={`${id}-status`} className="block text-xs font-medium text-slate-700">
              Status
            </label>
            <Select
              id={`${id}-status`}
              className="mt-1 w-40"
              value={filters.status}
              onValueChange={(status) => onFiltersChange({ status: status as JobStatus | '', page: 1 })}
              options={[['', 'All statuses'], ...JOB_STATUSES.map((s) => [s, s] as const)]}
            />
          </div>
        </div>
      </div>

      {/* Bulk actions need a kind the server knows (or every kind): it refuses any other. */}
      {filters.kind === '' || isOneOf(JOB_KINDS, filters.kind) ? <BulkActions kind={filters.kind} status={filters.status} /> : null}

      {jobs.isPending ? (
        <div className="p-4">
          <Spinner label="Loading jobs" />
        </div>
      ) : jobs.isError ? (
        <p role="alert" className="p-4 text-sm text-rose-700">
          Could not load jobs: {errorMessage(jobs.error)}
        </p>
      ) : rows.length === 0 ? (
        <p className="p-4 text-sm text-slate-500">No jobs match these filters.</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="min-w-full text-sm" aria-labelledby={`${id}-heading`}>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={th}>
                  Job
                </th>
                <th scope="col" className={th}>
                  Kind
                </th>
                <th scope="col" className={th}>
                  Status
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Attempts
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Progress
                </th>
                <th scope="col" className={th}>
                  Created
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((job) => {
                const selected = job.id === selectedJobId;
                return (
                  <tr
                    key={job.id}
                    data-job-id={job.id}
                    aria-current={selected ? 'true' : undefined}
                    className={selected ? 'bg-indigo-50' : 'hover:bg-slate-50'}
                  >
                    <td className="px-3 py-2">
                      <button
                        type="button"
                        onClick={() => onSelectJob(job.id)}
                        className="font-mono text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                      >
                        {job.id}
                      </button>
                    </td>
                    <td className="px-3 py-2">
                      {jobKindLabel(job.kind)}
                      <span className="block font-mono text-xs text-slate-500">{job.kind}</span>
                    </td>
                    <td className="px-3 py-2">
                      <StatusBadge status={job.status} />
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {job.attempts} / {job.maxAttempts}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {job.progress ? `${Math.round(job.progress.percent)}%` : '—'}
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(job.createdAt)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <nav
        aria-label="Jobs pages"
        className="flex items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm"
      >
        <p className="text-slate-600">
          {total === 0 ? 'No jobs' : `Showing ${from}–${to} of ${total.toLocaleString()}`}
        </p>
        <div className="flex items-center gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={filters.page <= 1}
            onClick={() => onFiltersChange({ page: filters.page - 1 })}
          >
            Previous
          </Button>
          <span className="text-slate-600">
            Page {filters.page} of {lastPage}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={filters.page >= lastPage}
            onClick={() => onFiltersChange({ page: filters.page + 1 })}
          >
            Next
          </Button>
        </div>
      </nav>
    </section>
  );
}
