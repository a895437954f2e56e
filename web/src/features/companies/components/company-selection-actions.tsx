import { BulkDelete, BulkStatus } from '@/components/ui/bulk-actions';
import { Button } from '@/components/ui/button';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useBulkCompanyStatus, useBulkDeleteCompanies } from '../api/bulk-companies';
import { useEnrichCompanies } from '../api/enrich-companies';
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
  // One job per company; each record shows what its website gave once its job has run.
  const enrich = useEnrichCompanies({
    onSuccess: (r) =>
      toast({
        title: 'Enrichment Started',
        description: r.skipped > 0 ? `${r.message}; ${r.skipped} without a website left out.` : `${r.message}.`,
        variant: 'success',
      }),
    onError: (e) => toast({ title: 'Enrichment Failed', description: serverMessageOr(e, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <>
      <BulkStatus statuses={COMPANY_STATUSES} pending={status.isPending} onApply={(s) => status.mutate({ companyIds: ids, status: s })} />
      <Button size="sm" variant="secondary" disabled={enrich.isPending} onClick={() => enrich.mutate(ids)}>
        {enrich.isPending ? 'Starting…' : 'Enrich from websites'}
      </Button>
      <Button size="sm" variant="secondary" disabled={exportCsv.isPending} onClick={() => exportCsv.mutate({ ids: ids.join(',') })}>
        {exportCsv.isPending ? 'Exporting…' : 'Export selected'}
      </Button>
      <BulkDelete what={what} consequence="Their contacts and deals stay, without a company." onDelete={() => remove.mutateAsync(ids)} />
    </>
  );
}
