import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, inputClass } from '@/components/ui/field';
import { EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { TabList } from '@/components/ui/tabs';
import { useDeleteSequence, useDeleteStep, useUpdateSequence } from '@/features/sequences/api/change-sequence';
import { useDeliverability, useSaveDeliverability } from '@/features/sequences/api/deliverability';
import { useReplyRules } from '@/features/sequences/api/get-reply-rules';
import { useSequences } from '@/features/sequences/api/get-sequences';
import { useSteps } from '@/features/sequences/api/get-steps';
import type { Deliverability, Sequence } from '@/features/sequences/api/types';
import { AddStepDialog } from '@/features/sequences/components/add-step-dialog';
import { CreateSequenceDialog } from '@/features/sequences/components/create-sequence-dialog';
import { errorMessage } from '@/lib/api-client';
import { delayHint } from '@/lib/rules';
import { toast } from '@/stores/toasts';

const STATUS_CLASS: Record<string, string> = {
  draft: 'bg-slate-100 text-slate-700',
  active: 'bg-emerald-100 text-emerald-800',
  paused: 'bg-amber-100 text-amber-800',
  archived: 'bg-slate-200 text-slate-600',
};

/** The average per-sequence completion percentage, over sequences with enrollments (seed 002 §9). */
export function averageCompletion(sequences: Sequence[]): number {
  const enrolled = sequences.filter((s) => s.totalEnrollments > 0);
  if (enrolled.length === 0) return 0;
  return Math.round(enrolled.reduce((n, s) => n + s.completionRate, 0) / enrolled.length);
}

function Builder({ sequence }: { sequence: Sequence }) {
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

function DeliverabilityPanel({ settings }: { settings: Deliverability }) {
  const [warmup, setWarmup] = useState(settings.warmupEnabled);
  const [daily, setDaily] = useState(String(settings.dailyLimit));
  const [hourly, setHourly] = useState(String(settings.hourlyLimit));
  const save = useSaveDeliverability({
    onSuccess: () => toast({ title: 'Settings Saved', variant: 'success' }),
    onError: (e) => toast({ title: 'Save Failed', description: errorMessage(e), variant: 'destructive' }),
  });
  return (
    <form
      aria-label="Deliverability"
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ warmupEnabled: warmup, dailyLimit: Number(daily), hourlyLimit: Number(hourly) });
      }}
    >
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" role="switch" checked={warmup} onChange={(e) => setWarmup(e.target.checked)} />
        Email Warmup <span className="text-slate-500">Gradually increase sending volume</span>
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Daily Sending Limit">
          <input type="number" min={1} className={inputClass} value={daily} onChange={(e) => setDaily(e.target.value)} />
        </Field>
        <Field label="Hourly Sending Limit">
          <input type="number" min={1} className={inputClass} value={hourly} onChange={(e) => setHourly(e.target.value)} />
        </Field>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <StatTile label="Today" value={`${settings.emailsSentToday} / ${settings.effectiveDailyLimit}`} />
        <StatTile label="This Hour" value={`${settings.emailsSentThisHour} / ${settings.hourlyLimit}`} />
      </div>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save'}
      </Button>
    </form>
  );
}

/** Email Sequences (seed 002 §2): sequences, the builder, reply rules and deliverability. */
export function EmailSequencesRoute() {
  const sequences = useSequences();
  const rules = useReplyRules();
  const deliverability = useDeliverability();
  const [tab, setTab] = useState('sequences');
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Sequence | null>(null);
  const update = useUpdateSequence({ onSuccess: () => toast({ title: 'Sequence Updated', variant: 'success' }) });
  const remove = useDeleteSequence({
    onSuccess: () => {
      toast({ title: 'Sequence Deleted', variant: 'success' });
      if (deleting?.id === selected) setSelected(null);
      setDeleting(null);
    },
  });
  const list = sequences.data ?? [];
  const current = list.find((s) => s.id === selected) ?? null;
  const open = (id: string) => {
    setSelected(id);
    setTab('builder');
  };

  let body;
  if (sequences.isPending) body = <Skeleton rows={3} label="Loading sequences" />;
  else if (sequences.isError)
    body = <ErrorState title="Could not load sequences" error={sequences.error} onRetry={() => sequences.refetch()} />;
  else if (list.length === 0) body = <EmptyState title="No sequences yet">Create a sequence to follow up automatically.</EmptyState>;
  else
    body = (
      <ul aria-label="Sequences" className="space-y-2">
        {list.map((s) => (
          <li key={s.id} aria-label={s.name} className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-white p-3 ring-1 ring-slate-200">
            <button type="button" onClick={() => open(s.id)} className="min-w-0 text-left">
              <span className="font-medium hover:underline">{s.name}</span>{' '}
              <span className={`rounded-full px-2 text-xs font-semibold uppercase ${STATUS_CLASS[s.status] ?? ''}`}>{s.status}</span>
              {s.abTestingEnabled ? <span className="ml-1 rounded bg-violet-100 px-1.5 text-xs text-violet-800">A/B Test</span> : null}
              <span className="block text-sm text-slate-500">{s.description}</span>
              <span className="block text-xs text-slate-600">
                {s.totalEnrollments} enrolled · {s.activeEnrollments} active · {s.completedEnrollments} completed
              </span>
            </button>
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => update.mutate({ id: s.id, status: s.status === 'active' ? 'paused' : 'active' })}>
                {s.status === 'active' ? 'Pause' : 'Activate'} <span className="sr-only">{s.name}</span>
              </Button>
              <Button variant="ghost" onClick={() => setDeleting(s)}>
                Delete <span className="sr-only">{s.name}</span>
              </Button>
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="space-y-6">
      <title>Email Sequences · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Email Sequences</h1>
        <Button onClick={() => setCreating(true)}>Create Sequence</Button>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatTile label="Active Sequences" value={list.filter((s) => s.status === 'active').length} />
        <StatTile label="Total Enrollments" value={list.reduce((n, s) => n + s.totalEnrollments, 0).toLocaleString()} />
        <StatTile label="Avg. Completion Rate" value={`${averageCompletion(list)}%`} />
        <StatTile label="Reply Rules" value={rules.data?.length ?? 0} />
      </div>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <TabList
          label="Sequence views"
          tabs={[['sequences', 'Sequences'], ['builder', 'Builder', !current], ['rules', 'Reply Rules'], ['deliverability', 'Deliverability']]}
        />
        <Tabs.Content value="sequences">{body}</Tabs.Content>
        <Tabs.Content value="builder">{current ? <Builder sequence={current} /> : null}</Tabs.Content>
        <Tabs.Content value="rules">
          {rules.data?.length ? (
            <ul aria-label="Reply rules" className="space-y-2">
              {rules.data.map((r) => (
                <li key={r.id} className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
                  <span className="font-medium">{r.name}</span> · {r.triggerType.replaceAll('_', ' ')} · triggered {r.timesTriggered}{' '}
                  {r.isActive ? <span className="rounded bg-emerald-100 px-1.5 text-xs text-emerald-800">Active</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState title="No reply rules yet" />
          )}
        </Tabs.Content>
        <Tabs.Content value="deliverability">
          {deliverability.data ? (
            <DeliverabilityPanel settings={deliverability.data} />
          ) : deliverability.isError ? (
            <ErrorState title="Could not load the settings" error={deliverability.error} onRetry={() => deliverability.refetch()} />
          ) : (
            <Skeleton rows={2} label="Loading settings" />
          )}
        </Tabs.Content>
      </Tabs.Root>
      {creating ? (
        <CreateSequenceDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            open(id);
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this sequence?"
          description="Are you sure you want to delete this sequence?"
          confirmLabel="Delete sequence"
          danger
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error) : undefined}
          onConfirm={() => remove.mutate(deleting.id)}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}
