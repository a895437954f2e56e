import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useExportCompanies, type CompanyExport } from '../api/export-companies';

/** The companies CSV download with its toasts: done, none to export (404), or failed. */
export const useCompaniesExport = () =>
  useExportCompanies({
    onSuccess: () => toast({ title: 'Export Complete', description: 'Companies downloaded as CSV.', variant: 'success' }),
    onError: (error) =>
      error instanceof ApiError && error.status === 404
        ? toast({ title: 'No Companies to Export', description: 'Try clearing a filter.', variant: 'destructive' })
        : toast({ title: 'Export Failed', description: error.message, variant: 'destructive' }),
  });

/** Downloads the companies matching the filters as CSV; `total` is how many match, as shown. */
export function ExportCompaniesButton({ filters, total }: { filters: CompanyExport; total: string | undefined }) {
  const exportCsv = useCompaniesExport();
  return (
    <Button
      variant="secondary"
      disabled={exportCsv.isPending}
      onClick={() => exportCsv.mutate({ q: filters.q, state: filters.state, status: filters.status, scoreBand: filters.scoreBand })}
    >
      {exportCsv.isPending ? 'Exporting…' : `Export (${total ?? 0})`}
    </Button>
  );
}
