import { useMutation } from '@tanstack/react-query';

import { downloadFile } from '@/lib/download';
import type { ApiQuery } from '@/types/api';

export const CONTACTS_EXPORT_URL = '/api/contacts/export';

/** What to export: the list's filters, or the contacts picked (`ids`, comma-separated, at most 1,000). */
export type ContactExport = ApiQuery<'/api/contacts/export', 'get'>;

/** The server writes contacts-export.csv for the filters or ids (404 when none match). */
export const exportContacts = (params: ContactExport) => downloadFile(CONTACTS_EXPORT_URL, 'contacts-export.csv', params);

export const useExportContacts = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: exportContacts, ...options });
