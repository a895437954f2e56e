import { BulkDelete, BulkStatus } from '@/components/ui/bulk-actions';
import { Button } from '@/components/ui/button';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useBulkCompanyStatus, useBulkDeleteCompanies } from '../api/bulk-companies';
import { COMPANY_STATUSES } from './company-filters';
import { useCompaniesExport } from './export-companies-button';

/**
 * What the selection bar of the companies table offers: set their status, export them and delete
 * them after a confirmation. `onDone` clears the selection after a status change, `onDeleted` after a
 * delete.
 */
export function CompanySelectionActions({
  ids,
  what,
  onDone,
  onDeleted,
}: {
  ids: string[];
  what: string;
  onDone: () => void;
  onDeleted: () => void;
}) {
  const status = useBulkCompanyStatus({
    onSuccess: (r) => {
      onDone();
      toast({ title: 'Status Updated', description: `${r.message}.`, variant: 'success' });
    },
    onError: (e) => toast({ title: 'Status Update Failed', description: serverMessageOr(e, 'Please try again.'), variant: 'destructive' }),
  });
  const remove = useBulkDeleteCompanies({
    onSuccess: (r) => {
      onDeleted();
      toast({ title: 'Companies Deleted', description: `${r.message}.`, variant: 'success' });
    },
  });
  const exportCsv = useCompaniesExport();
  return (
    <>
      <BulkStatus statuses={COMPANY_STATUSES} pending={status.isPending} onApply={(s) => status.mutate({ companyIds: ids, status: s })} />
      <Button size="sm" variant="secondary" disabled={exportCsv.isPending} onClick={() => exportCsv.mutate({ ids: ids.join(',') })}>
        {exportCsv.isPending ? 'Exporting…' : 'Export selected'}
      </Button>
      <BulkDelete what={what} consequence="Their contacts and deals stay, without a company." onDelete={() => remove.mutateAsync(ids)} />
    </>
  );
}
