import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useDeleteSequence, useUpdateSequence } from '../api/change-sequence';
import type { Sequence } from '../api/types';

const STATUS_CLASS: Record<string, string> = {
  draft: 'bg-slate-100 text-slate-700',
  active: 'bg-emerald-100 text-emerald-800',
  paused: 'bg-amber-100 text-amber-800',
  archived: 'bg-slate-200 text-slate-600',
};

/** The sequences: open one, pause or activate it, delete it after asking. */
export function SequenceList({ sequences, onOpen }: { sequences: UseQueryResult<Sequence[]>; onOpen: (id: string) => void }) {
  const [deleting, setDeleting] = useState<Sequence | null>(null);
  const update = useUpdateSequence({ onSuccess: () => toast({ title: 'Sequence Updated', variant: 'success' }) });
  const remove = useDeleteSequence({
    onSuccess: () => {
      toast({ title: 'Sequence Deleted', variant: 'success' });
      setDeleting(null);
    },
  });
  const list = sequences.data ?? [];

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
            <button type="button" aria-label={`Open ${s.name}`} onClick={() => onOpen(s.id)} className="min-w-0 text-left">
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
    <>
      {body}
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
    </>
  );
}
