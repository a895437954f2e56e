import { Button } from './button';
import { Dialog } from './dialog';

type ConfirmDialogProps = {
  title: string;
  description: string;
  confirmLabel: string;
  pending?: boolean;
  /** Destructive actions get the red button. */
  danger?: boolean;
  /** Why the last try failed, shown in the dialog (the page behind it is hidden from readers). */
  error?: string;
  onConfirm: () => void;
  onCancel: () => void;
};

/** Asks before an action that cannot be undone; mounted when needed, like the other dialogs. */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  pending = false,
  danger = false,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()} title={title} description={description}>
      {error ? (
        <p role="alert" className="mb-3 text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} disabled={pending}>
          {pending ? 'Working…' : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
