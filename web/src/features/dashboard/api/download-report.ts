import { useMutation } from '@tanstack/react-query';

import { downloadFile } from '@/lib/download';

export const REPORT_URL = '/api/dashboard/report';

/** The server builds business-development-report-{date}.csv from the real data. */
export const downloadReport = () =>
  downloadFile(REPORT_URL, `business-development-report-${new Date().toISOString().slice(0, 10)}.csv`);

export const useDownloadReport = (options: { onSuccess?: () => void; onError?: () => void } = {}) =>
  useMutation({ mutationFn: downloadReport, ...options });
