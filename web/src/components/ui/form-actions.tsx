import { Button } from './button';

type FormActionsProps = {
  onCancel: () => void;
  pending: boolean;
  label: string;
  /** Shown on the submit button while the request runs, e.g. 'Creating...'. */
  pendingLabel: string;
};

/** A dialog form's Cancel and submit buttons. */
export function FormActions({ onCancel, pending, label, pendingLabel }: FormActionsProps) {
  return (
    <div className="flex justify-end gap-2">
      <Button type="button" variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : label}
      </Button>
    </div>
  );
}
