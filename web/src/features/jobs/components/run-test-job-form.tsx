import { useId, useState, type SubmitEvent } from 'react';

import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useCreateJob, type NoopPayload } from '../api/create-job';

type RunTestJobFormProps = {
  /** Called with the new job's id once the server has queued it. */
  onQueued: (jobId: string) => void;
};

const MAX_SLEEP_MS = 600_000;
const MAX_STEPS = 1000;

function parseWholeNumber(raw: string, max: number): number | string {
  if (raw.trim() === '') return 'Enter a number';
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) return 'Enter a whole number of 0 or more';
  if (value > max) return `Enter at most ${max.toLocaleString()}`;
  return value;
}

/** Enqueues a `noop` job — a harmless job for checking the queue end to end. */
export function RunTestJobForm({ onQueued }: RunTestJobFormProps) {
  const id = useId();
  const [sleepMs, setSleepMs] = useState('1500');
  const [steps, setSteps] = useState('3');
  const [fail, setFail] = useState(false);
  const [errors, setErrors] = useState<{ sleepMs?: string; steps?: string }>({});
  const createJob = useCreateJob({
    onSuccess: ({ jobId }) => {
      toast({ title: 'Test job queued', description: jobId, variant: 'success' });
      onQueued(jobId);
    },
  });

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const sleep = parseWholeNumber(sleepMs, MAX_SLEEP_MS);
    const stepCount = parseWholeNumber(steps, MAX_STEPS);
    const nextErrors = {
      ...(typeof sleep === 'string' ? { sleepMs: sleep } : {}),
      ...(typeof stepCount === 'string' ? { steps: stepCount } : {}),
    };
    setErrors(nextErrors);
    if (typeof sleep === 'string' || typeof stepCount === 'string') return;
    const payload: NoopPayload = { sleepMs: sleep, steps: stepCount, ...(fail ? { fail } : {}) };
    createJob.mutate({ kind: 'noop', payload });
  };

  const inputClass =
    'mt-1 block w-28 rounded-md border-0 bg-white px-2.5 py-1.5 text-sm tabular-nums ring-1 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none';

  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        Run test job
      </h2>
      <p className="mt-1 text-sm text-slate-500">
        Queues a <code className="font-mono">noop</code> job that sleeps and reports progress.
      </p>
      <form noValidate onSubmit={handleSubmit} aria-label="Run test job" className="mt-3">
        <div className="flex flex-wrap items-start gap-4">
          <div>
            <label htmlFor={`${id}-sleep`} className="block text-xs font-medium text-slate-700">
              Sleep (ms)
            </label>
            <input
              id={`${id}-sleep`}
              name="sleepMs"
              type="number"
              inputMode="numeric"
              min={0}
              max={MAX_SLEEP_MS}
              step={100}
              value={sleepMs}
              onChange={(e) => setSleepMs(e.target.value)}
              aria-invalid={errors.sleepMs ? true : undefined}
              aria-describedby={errors.sleepMs ? `${id}-sleep-error` : undefined}
              className={`${inputClass} ${errors.sleepMs ? 'ring-rose-500' : 'ring-slate-300'}`}
            />
            {errors.sleepMs ? (
              <p id={`${id}-sleep-error`} className="mt-1 text-xs text-rose-600">
                {errors.sleepMs}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor={`${id}-steps`} className="block text-xs font-medium text-slate-700">
              Steps
            </label>
            <input
              id={`${id}-steps`}
              name="steps"
              type="number"
              inputMode="numeric"
              min={0}
              max={MAX_STEPS}
              value={steps}
              onChange={(e) => setSteps(e.target.value)}
              aria-invalid={errors.steps ? true : undefined}
              aria-describedby={errors.steps ? `${id}-steps-error` : undefined}
              className={`${inputClass} ${errors.steps ? 'ring-rose-500' : 'ring-slate-300'}`}
            />
            {errors.steps ? (
              <p id={`${id}-steps-error`} className="mt-1 text-xs text-rose-600">
                {errors.steps}
              </p>
            ) : null}
          </div>
          <div className="flex items-center gap-2 pt-6">
            <input
              id={`${id}-fail`}
              name="fail"
              type="checkbox"
              checked={fail}
              onChange={(e) => setFail(e.target.checked)}
              className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
            />
            <label htmlFor={`${id}-fail`} className="text-sm text-slate-700">
              Make it fail
            </label>
          </div>
          <div className="pt-5">
            <Button type="submit" disabled={createJob.isPending}>
              {createJob.isPending ? 'Queuing…' : 'Run test job'}
            </Button>
          </div>
        </div>
        {createJob.isError ? (
          <p role="alert" className="mt-3 text-sm text-rose-700">
            Could not queue the job: {errorMessage(createJob.error)}
          </p>
        ) : null}
      </form>
    </section>
  );
}
