import { Button } from '@/components/ui/button';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useExportPipeline } from '../api/export-pipeline';

/** Downloads the pipeline as CSV. */
export function ExportPipelineButton() {
  const exportCsv = useExportPipeline({
    onSuccess: () => toast({ title: 'Export Complete', description: 'Pipeline data downloaded as CSV.', variant: 'success' }),
    onError: (error) => toast({ title: 'Export Failed', description: serverMessageOr(error, 'Unable to export pipeline data.'), variant: 'destructive' }),
  });
  return (
    <Button variant="secondary" onClick={() => exportCsv.mutate()} disabled={exportCsv.isPending}>
      {exportCsv.isPending ? 'Exporting…' : 'Export Pipeline'}
    </Button>
  );
}
