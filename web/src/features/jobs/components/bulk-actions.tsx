import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { BulkJobAction, JobKind, JobStatus } from '@/types/api';

import { useBulkJobs } from '../api/bulk-jobs';

type BulkActionsProps = {
  /** A kind the server knows, or '' for every kind. */
  kind: JobKind | '';
  status: JobStatus | '';
};

/** Each action, the states it applies to, and how it reads. */
const ACTIONS: { action: BulkJobAction; label: string; states: JobStatus[]; verb: string; danger: boolean }[] = [
  { action: 'retry', label: 'Retry all', states: ['failed', 'cancelled'], verb: 'retried', danger: false },
  { action: 'run_now', label: 'Run all now', states: ['queued', 'scheduled', 'retrying'], verb: 'started', danger: false },
  { action: 'cancel', label: 'Cancel all', states: ['queued', 'scheduled', 'retrying', 'running'], verb: 'cancelled', danger: true },
  { action: 'delete', label: 'Delete all', states: ['succeeded', 'failed', 'cancelled'], verb: 'deleted', danger: true },
];

/**
 * Actions over every job the list's filters select (not only the page shown), each confirmed
 * with its scope spelled out; an action that cannot apply to the chosen status is not offered.
 */
export function BulkActions({ kind, status }: BulkActionsProps) {
  const [pending, setPending] = useState<(typeof ACTIONS)[number] | null>(null);
  const bulk = useBulkJobs({
    onSuccess: (r) => {
      const done = ACTIONS.find((a) => a.action === r.action);
      setPending(null);
      toast({
        title: `${r.affected.toLocaleString()} job${r.affected === 1 ? '' : 's'} ${done?.verb ?? 'changed'}`,
        variant: 'success',
      });
    },
  });
  const offered = ACTIONS.filter((a) => status === '' || a.states.includes(status));
  const scope = (a: (typeof ACTIONS)[number]) => {
    const states = status ? [status] : a.states;
    return `Every ${states.join(', ')} job${kind ? ` of kind ${kind}` : ' of every kind'}`;
  };

  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2" role="group" aria-label="Bulk actions">
      <span className="text-xs font-medium text-slate-500">Over the filtered jobs:</span>
      {offered.map((a) => (
        <Button
          key={a.action}
          size="sm"
          variant={a.danger ? 'danger' : 'secondary'}
          onClick={() => {
            bulk.reset();
            setPending(a);
          }}
        >
          {a.label}
        </Button>
      ))}
      {pending ? (
        <ConfirmDialog
          title={`${pending.label}?`}
          description={`${scope(pending)} will be ${pending.verb}.`}
          confirmLabel={pending.label}
          danger={pending.danger}
          pending={bulk.isPending}
          error={bulk.error ? errorMessage(bulk.error) : undefined}
          onConfirm={() =>
            bulk.mutate({ action: pending.action, kind: kind || undefined, status: status || undefined })
          }
          onCancel={() => setPending(null)}
        />
      ) : null}
    </div>
  );
}
