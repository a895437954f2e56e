import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useExportContacts } from '../api/export-contacts';
import type { ContactFilters } from '../api/get-contacts';

/** The contacts CSV download with its toasts: done, none to export (404), or failed. */
export const useContactsExport = () =>
  useExportContacts({
    onSuccess: () => toast({ title: 'Export Complete', description: 'Contacts downloaded as CSV.', variant: 'success' }),
    onError: (error) =>
      error instanceof ApiError && error.status === 404
        ? toast({ title: 'No Contacts to Export', description: 'Add contacts first or clear filters.', variant: 'destructive' })
        : toast({ title: 'Export Failed', description: error.message, variant: 'destructive' }),
  });

/** Downloads the contacts matching the filters as CSV; `total` is how many match, as shown. */
export function ExportContactsButton({ filters, total }: { filters: ContactFilters; total: string | undefined }) {
  const exportCsv = useContactsExport();
  return (
    <Button
      variant="secondary"
      disabled={exportCsv.isPending}
      onClick={() => exportCsv.mutate({ q: filters.q, role: filters.role, region: filters.region, status: filters.status })}
    >
      {exportCsv.isPending ? 'Exporting…' : `Export (${total ?? 0})`}
    </Button>
  );
}
