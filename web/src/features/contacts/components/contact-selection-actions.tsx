import { BulkDelete, BulkStatus } from '@/components/ui/bulk-actions';
import { Button } from '@/components/ui/button';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useBulkContactStatus, useBulkDeleteContacts, type ContactSelection } from '../api/bulk-contacts';
import { ALL_STATUSES } from './contact-form-dialog';
import { useContactsExport } from './export-contacts-button';

/**
 * What the selection bar of a contacts table adds: set their status (contacts only; customers
 * would leave their list), export them (the picked ids, or the filters of "all matching") and
 * delete them after a confirmation. `onDone` clears the selection after a status change,
 * `onDeleted` after a delete.
 */
export function ContactSelectionActions({
  selection,
  what,
  title,
  withStatus = false,
  onDone,
  onDeleted,
}: {
  selection: ContactSelection;
  /** How many, as the bar reads it: "3 contacts". */
  what: string;
  /** The delete toast's subject: "Contacts" or "Customers". */
  title: string;
  withStatus?: boolean;
  onDone: () => void;
  onDeleted: () => void;
}) {
  const status = useBulkContactStatus({
    onSuccess: (r) => {
      onDone();
      toast({ title: 'Status Updated', description: `${r.message}.`, variant: 'success' });
    },
    onError: (e) => toast({ title: 'Status Update Failed', description: serverMessageOr(e, 'Please try again.'), variant: 'destructive' }),
  });
  const remove = useBulkDeleteContacts({
    onSuccess: (r) => {
      onDeleted();
      toast({ title: `${title} Deleted`, description: `${r.message}.`, variant: 'success' });
    },
  });
  const exportCsv = useContactsExport();
  return (
    <>
      {withStatus ? <BulkStatus statuses={ALL_STATUSES} pending={status.isPending} onApply={(s) => status.mutate({ selection, status: s })} /> : null}
      <Button
        size="sm"
        variant="secondary"
        disabled={exportCsv.isPending}
        onClick={() => exportCsv.mutate(selection.contactFilter ?? { ids: (selection.contactIds ?? []).join(',') })}
      >
        {exportCsv.isPending ? 'Exporting…' : 'Export selected'}
      </Button>
      <BulkDelete
        what={what}
        consequence="Their notes, tasks, sequence enrollments and calls go with them; sent email and activity stay."
        onDelete={() => remove.mutateAsync(selection)}
      />
    </>
  );
}
