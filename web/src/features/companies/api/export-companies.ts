import { useMutation } from '@tanstack/react-query';

import { downloadFile } from '@/lib/download';
import type { ApiQuery } from '@/types/api';

import { COMPANIES_URL } from './get-companies';

/** What to export: the list's filters, or the companies picked (`ids`, comma-separated, at most 1,000). */
export type CompanyExport = ApiQuery<'/api/companies/export', 'get'>;

/** The server writes companies-export.csv (404 "No companies to export" when none match). */
export const exportCompanies = (params: CompanyExport) => downloadFile(`${COMPANIES_URL}/export`, 'companies-export.csv', params);

export const useExportCompanies = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: exportCompanies, ...options });
