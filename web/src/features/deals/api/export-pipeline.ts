import { useMutation } from '@tanstack/react-query';

import { downloadFile } from '@/lib/download';

/** The server writes pipeline_export_{date}.csv. */
export const exportPipeline = () =>
  downloadFile('/api/pipeline/export', `pipeline_export_${new Date().toISOString().slice(0, 10)}.csv`);

export const useExportPipeline = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: exportPipeline, ...options });
