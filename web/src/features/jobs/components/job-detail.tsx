import { useState, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/stores/toasts';
import {
  CANCELLABLE_JOB_STATUSES,
  RETRYABLE_JOB_STATUSES,
  WAITING_JOB_STATUSES,
  isTerminalStatus,
  type Job,
} from '@/types/api';

import { useCancelJob } from '../api/cancel-job';
import { useDeleteJob } from '../api/delete-job';
import { useJob } from '../api/get-job';
import { useRetryJob } from '../api/retry-job';
import { useRunJobNow } from '../api/run-job-now';
import { jobKindLabel } from '../kind-labels';

import { JobAttempts } from './job-attempts';
import { StatusBadge } from './status-badge';

type JobDetailProps = {
  jobId: string;
  onClose: () => void;
  /** Called when a retry produced a job with another id. */
  onSelectJob: (id: string) => void;
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-1.5">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="text-right text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function Timestamp({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="text-slate-400">—</span>;
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

function progressPercent(job: Job): number {
  if (job.progress) return job.progress.percent;
  return job.status === 'succeeded' ? 100 : 0;
}

export function JobDetail({ jobId, onClose, onSelectJob }: JobDetailProps) {
  const job = useJob(jobId);
  const cancel = useCancelJob({
    onSuccess: () => toast({ title: 'Job cancelled', description: jobId }),
  });
  const retry = useRetryJob({
    onSuccess: (response, id) => {
      toast({ title: 'Job queued for retry', description: response.jobId, variant: 'success' });
      if (response.jobId !== id) onSelectJob(response.jobId);
    },
  });

  const runNow = useRunJobNow({
    onSuccess: () => toast({ title: 'Job runs now', description: jobId, variant: 'success' }),
  });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const remove = useDeleteJob({
    onSuccess: () => {
      setConfirmDelete(false);
      toast({ title: 'Job deleted', description: jobId, variant: 'success' });
      onClose();
    },
  });

  const data = job.data;
  const live = data !== undefined && !isTerminalStatus(data.status);
  const actionError = cancel.error ?? retry.error ?? runNow.error;
  const resetActions = () => {
    cancel.reset();
    retry.reset();
    runNow.reset();
    remove.reset();
  };

  return (
    <section
      aria-labelledby="job-detail-heading"
      data-job-id={jobId}
      data-job-status={data?.status}
      className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0">
          <h2 id="job-detail-heading" className="text-base font-semibold">
            Job details
          </h2>
          <p className="truncate font-mono text-xs text-slate-500" title={jobId}>
            {jobId}
          </p>
        </div>
        <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close job details">
          Close
        </Button>
      </div>

      <div className="space-y-4 px-4 py-3">
        {job.isPending ? (
          <Spinner label="Loading job" />
        ) : job.isError && !data ? (
          <p role="alert" className="text-sm text-rose-700">
            {job.error instanceof ApiError && job.error.status === 404
              ? 'Job not found'
              : `Could not load the job: ${errorMessage(job.error)}`}
          </p>
        ) : data ? (
          <>
            <dl className="divide-y divide-slate-100">
              <Field label="Kind">
                {jobKindLabel(data.kind)} <span className="font-mono text-xs text-slate-500">({data.kind})</span>
              </Field>
              <Field label="Status">
                <span className="inline-flex items-center gap-2">
                  <StatusBadge status={data.status} />
                  <span className="text-xs text-slate-400">{live ? 'live' : 'final'}</span>
                </span>
              </Field>
              <Field label="Attempts">
                <span className="tabular-nums">
                  {data.attempts} / {data.maxAttempts}
                </span>
              </Field>
            </dl>

            <div>
              <h3 className="mb-1.5 text-sm font-medium text-slate-700">Progress</h3>
              <ProgressBar
                label="Job progress"
                percent={progressPercent(data)}
                message={data.progress?.message}
              />
            </div>

            {data.error ? (
              <div>
                <h3 className="mb-1.5 text-sm font-medium text-slate-700">Error</h3>
                <pre className="relative overflow-x-auto rounded-md bg-rose-50 p-3 text-xs whitespace-pre-wrap text-rose-800">
                  {data.error}
                </pre>
              </div>
            ) : null}

            {data.result !== null && data.result !== undefined ? (
              <div>
                <h3 className="mb-1.5 text-sm font-medium text-slate-700">Result</h3>
                <pre
                  aria-label="Job result"
                  className="max-h-64 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100"
                >
                  {JSON.stringify(data.result, null, 2)}
                </pre>
              </div>
            ) : null}

            <JobAttempts jobId={data.id} live={live} />

            <dl className="divide-y divide-slate-100">
              <Field label="Created">
                <Timestamp value={data.createdAt} />
              </Field>
              <Field label="Run at">
                <Timestamp value={data.runAt} />
              </Field>
              <Field label="Started">
                <Timestamp value={data.startedAt} />
              </Field>
              <Field label="Finished">
                <Timestamp value={data.finishedAt} />
              </Field>
            </dl>

            {job.isError ? (
              <p role="alert" className="text-sm text-amber-700">
                Last refresh failed: {errorMessage(job.error)}
              </p>
            ) : null}

            <div className="flex flex-wrap gap-2">
              {WAITING_JOB_STATUSES.includes(data.status) ? (
                <Button
                  variant="secondary"
                  onClick={() => {
                    resetActions();
                    runNow.mutate(data.id);
                  }}
                  disabled={runNow.isPending}
                >
                  {runNow.isPending ? 'Starting…' : 'Run now'}
                </Button>
              ) : null}
              {RETRYABLE_JOB_STATUSES.includes(data.status) ? (
                <Button
                  onClick={() => {
                    resetActions();
                    retry.mutate(data.id);
                  }}
                  disabled={retry.isPending}
                >
                  {retry.isPending ? 'Retrying…' : 'Retry'}
                </Button>
              ) : null}
              {CANCELLABLE_JOB_STATUSES.includes(data.status) ? (
                <Button
                  variant="danger"
                  onClick={() => {
                    resetActions();
                    cancel.mutate(data.id);
                  }}
                  disabled={cancel.isPending}
                >
                  {cancel.isPending ? 'Cancelling…' : 'Cancel'}
                </Button>
              ) : null}
              {data.status !== 'running' ? (
                <Button
                  variant="ghost"
                  onClick={() => {
                    resetActions();
                    setConfirmDelete(true);
                  }}
                >
                  Delete
                </Button>
              ) : null}
            </div>
            {confirmDelete ? (
              <ConfirmDialog
                title="Delete this job?"
                description={`The ${jobKindLabel(data.kind)} job ${data.id} and its history are removed for good.`}
                confirmLabel="Delete job"
                danger
                pending={remove.isPending}
                error={remove.error ? errorMessage(remove.error) : undefined}
                onConfirm={() => remove.mutate(data.id)}
                onCancel={() => setConfirmDelete(false)}
              />
            ) : null}
            {actionError ? (
              <p role="alert" className="text-sm text-rose-700">
                {errorMessage(actionError)}
              </p>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
