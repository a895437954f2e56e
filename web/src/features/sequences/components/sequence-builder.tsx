import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { delayHint } from '@/lib/rules';
import { toast } from '@/stores/toasts';

import { useDeleteStep } from '../api/change-sequence';
import { useSteps } from '../api/get-steps';
import type { Sequence } from '../api/types';
import { AddStepDialog } from './add-step-dialog';

/** The steps of one sequence, in order: add one, delete one. */
export function SequenceBuilder({ sequence }: { sequence: Sequence }) {
  const steps = useSteps(sequence.id);
  const [adding, setAdding] = useState(false);
  const remove = useDeleteStep({ onError: (e) => toast({ title: 'Delete Failed', description: errorMessage(e), variant: 'destructive' }) });
  if (steps.isPending) return <Skeleton rows={2} label="Loading steps" />;
  if (steps.isError) return <ErrorState title="Could not load the steps" error={steps.error} onRetry={() => steps.refetch()} />;
  const nextOrder = steps.data.reduce((n, s) => Math.max(n, s.stepOrder + 1), 0);
  return (
    <section aria-label={`Steps of ${sequence.name}`} className="space-y-3">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">{sequence.name}</h2>
        <Button onClick={() => setAdding(true)}>Add Step</Button>
      </div>
      {steps.data.length === 0 ? (
        <EmptyState title="No steps yet">Add the first email of this sequence.</EmptyState>
      ) : (
        <ol aria-label="Steps" className="space-y-2">
          {steps.data.map((s, i) => (
            <li key={s.id} aria-label={s.name} className="rounded-lg bg-white p-3 ring-1 ring-slate-200">
              {i > 0 ? <span aria-hidden="true" className="-mt-6 mb-1 block text-center text-slate-400">↓</span> : null}
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div>
                  <span className="font-medium">{s.name}</span>{' '}
                  <span className="rounded bg-slate-100 px-1.5 text-xs">{s.type.replace('_', ' ')}</span>
                  {s.delayMinutes > 0 ? <span className="ml-2 text-xs text-slate-500">after {delayHint(s.delayMinutes)}</span> : null}
                </div>
                <Button variant="ghost" onClick={() => remove.mutate({ sequenceId: sequence.id, stepId: s.id })}>
                  Delete <span className="sr-only">{s.name}</span>
                </Button>
              </div>
              <p className="mt-1 text-xs text-slate-600">
                Sent {s.totalSent} · Opened {s.totalOpened} · Clicked {s.totalClicked} · Replied {s.totalReplied} · Bounced{' '}
                {s.totalBounced}
              </p>
            </li>
          ))}
        </ol>
      )}
      {adding ? <AddStepDialog sequenceId={sequence.id} nextOrder={nextOrder} onClose={() => setAdding(false)} /> : null}
    </section>
  );
}
