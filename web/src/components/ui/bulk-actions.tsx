import { useId, useState } from 'react';

import { errorMessage } from '@/lib/api-client';
import { isOneOf } from '@/lib/guards';

import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { Select } from './select';

/** "Set status" for a selection: pick one of `statuses`, then Apply. */
export function BulkStatus<S extends string>({
  statuses,
  pending,
  onApply,
}: {
  statuses: readonly S[];
  pending: boolean;
  onApply: (status: S) => void;
}) {
  const [status, setStatus] = useState<S | ''>('');
  const labelId = useId();
  return (
    <>
      <span className="flex items-center gap-1 text-sm text-indigo-900">
        <span id={labelId}>Set status</span>
        <Select
          aria-labelledby={labelId}
          size="sm"
          className="w-40"
          value={status}
          onValueChange={(v) => setStatus(isOneOf(statuses, v) ? v : '')}
          options={statuses.map((s) => [s, s.replaceAll('_', ' ')] as const)}
        />
      </span>
      <Button size="sm" disabled={!status || pending} onClick={() => status && onApply(status)}>
        {pending ? 'Applying…' : 'Apply'}
      </Button>
    </>
  );
}

/**
 * "Delete" for a selection, asked first in a dialog naming how many (`what`: "3 contacts");
 * `onDelete` settles when the server has answered, and its failure is shown in the dialog.
 */
export function BulkDelete({ what, consequence, onDelete }: { what: string; consequence: string; onDelete: () => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setPending(true);
    setError(undefined);
    try {
      await onDelete();
      setOpen(false);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button size="sm" variant="danger" onClick={() => setOpen(true)}>
        Delete
      </Button>
      {open ? (
        <ConfirmDialog
          title={`Delete ${what}?`}
          description={`${consequence} This cannot be undone.`}
          confirmLabel={`Delete ${what}`}
          danger
          pending={pending}
          error={error}
          onConfirm={() => void confirm()}
          onCancel={() => {
            setOpen(false);
            setError(undefined);
          }}
        />
      ) : null}
    </>
  );
}
