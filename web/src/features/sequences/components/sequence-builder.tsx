import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { delayHint } from '@/lib/rules';
import { toast } from '@/stores/toasts';

import { useDeleteStep, useReorderSteps } from '../api/change-sequence';
import { useSteps } from '../api/get-steps';
import type { Sequence, SequenceStep } from '../api/types';
import { StepDialog } from './step-dialog';

/** The step's ids with the one at `i` moved by `by` (-1 up, +1 down). */
export function moved(steps: SequenceStep[], i: number, by: number): string[] {
  const ids = steps.map((s) => s.id);
  const j = i + by;
  if (j < 0 || j >= ids.length) return ids;
  [ids[i], ids[j]] = [ids[j] ?? '', ids[i] ?? ''];
  return ids;
}

/** What a step does, in a few words. */
function summary(s: SequenceStep): string {
  const c = s.config;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  if (s.type === 'email') {
    const variants = c.variants as Record<string, { subject?: string }> | undefined;
    if (variants) return `A: ${variants.A?.subject ?? '—'} · B: ${variants.B?.subject ?? '—'}`;
    return str(c.subject) || (str(c.templateId) ? `Template: ${str(c.templateId)}` : 'Built-in Follow-up template');
  }
  if (s.type === 'condition') return `Continues when ${str(c.check)}${typeof c.value === 'number' ? ` ${c.value}` : ''}; otherwise exits`;
  if (s.type === 'action') return str(c.addTag) ? `Adds the tag ${str(c.addTag)}` : 'Runs an action';
  if (s.type === 'ab_test') return 'Assigns the contact to variant A or B';
  return 'Waits';
}

const TYPE_LABEL: Record<string, string> = { email: 'email', delay: 'delay', condition: 'condition', action: 'action', ab_test: 'A/B split' };

/** The steps of one sequence, in running order: add, edit, move up or down, delete (after asking). */
export function SequenceBuilder({ sequence }: { sequence: Sequence }) {
  const steps = useSteps(sequence.id);
  const [editing, setEditing] = useState<SequenceStep | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SequenceStep | null>(null);
  const fail = (title: string) => (e: Error) => toast({ title, description: errorMessage(e), variant: 'destructive' });
  const remove = useDeleteStep({ onSuccess: () => setDeleting(null) });
  const reorder = useReorderSteps({ onError: fail('Reorder Failed') });
  if (steps.isPending) return <Skeleton rows={2} label="Loading steps" />;
  if (steps.isError) return <ErrorState title="Could not load the steps" error={steps.error} onRetry={() => steps.refetch()} />;
  const list = steps.data;
  const move = (i: number, by: number) => reorder.mutate({ sequenceId: sequence.id, stepIds: moved(list, i, by) });
  return (
    <section aria-label={`Steps of ${sequence.name}`} className="space-y-3">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">Steps</h2>
        <Button onClick={() => setEditing('new')}>Add Step</Button>
      </div>
      {list.length === 0 ? (
        <EmptyState title="No steps yet">Add the first email of this sequence.</EmptyState>
      ) : (
        <ol aria-label="Steps" className="space-y-2">
          {list.map((s, i) => (
            <li key={s.id} aria-label={s.name} className="rounded-lg bg-white p-3 ring-1 ring-slate-200">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0">
                  <span className="mr-2 text-xs text-slate-500">{i + 1}.</span>
                  <span className="font-medium">{s.name}</span>{' '}
                  <span className="rounded bg-slate-100 px-1.5 text-xs">{TYPE_LABEL[s.type] ?? s.type}</span>
                  {s.delayMinutes > 0 ? <span className="ml-2 text-xs text-slate-500">after {delayHint(s.delayMinutes)}</span> : null}
                  <p className="truncate text-sm text-slate-600">{summary(s)}</p>
                </div>
                <div className="flex flex-wrap gap-1">
                  <Button variant="ghost" size="sm" disabled={i === 0 || reorder.isPending} onClick={() => move(i, -1)} aria-label={`Move ${s.name} up`}>
                    ↑
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={i === list.length - 1 || reorder.isPending}
                    onClick={() => move(i, 1)}
                    aria-label={`Move ${s.name} down`}
                  >
                    ↓
                  </Button>
                  <Button variant="secondary" size="sm" onClick={() => setEditing(s)}>
                    Edit <span className="sr-only">{s.name}</span>
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => setDeleting(s)}>
                    Delete <span className="sr-only">{s.name}</span>
                  </Button>
                </div>
              </div>
              <p className="mt-1 text-xs text-slate-600">
                Sent {s.totalSent} · Opened {s.totalOpened} · Clicked {s.totalClicked} · Replied {s.totalReplied} · Bounced{' '}
                {s.totalBounced}
              </p>
            </li>
          ))}
        </ol>
      )}
      {editing ? (
        <StepDialog sequenceId={sequence.id} step={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this step?"
          description={`"${deleting.name}" is removed; contacts at this step go on with the next one.`}
          confirmLabel="Delete step"
          danger
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error) : undefined}
          onConfirm={() => remove.mutate({ sequenceId: sequence.id, stepId: deleting.id })}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </section>
  );
}
