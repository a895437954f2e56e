import { useMutation } from '@tanstack/react-query';

import { downloadFile } from '@/lib/download';

import type { ContactFilters } from './get-contacts';

export const CONTACTS_EXPORT_URL = '/api/contacts/export';

/** The server writes contacts-export.csv for the current filters (404 when none match). */
export const exportContacts = (filters: Omit<ContactFilters, 'limit' | 'offset'>) =>
  downloadFile(CONTACTS_EXPORT_URL, 'contacts-export.csv', filters);

export const useExportContacts = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: exportContacts, ...options });
