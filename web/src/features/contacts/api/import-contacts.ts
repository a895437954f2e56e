import { useMutation } from '@tanstack/react-query';

import { errorFromResponse } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';

export const CONTACTS_IMPORT_URL = '/api/contacts/import';

/** What the contact_import job reports when it succeeds. */
export type ImportResult = {
  rows: number;
  imported: number;
  updated: number;
  rejected: { line: number; reason: string }[];
  rejectedCount: number;
};

/** Uploads the CSV as sent (text/csv); the server stores it and answers 202 with the job id. */
export async function importContacts(file: Blob): Promise<EnqueueResponse> {
  const response = await fetch(CONTACTS_IMPORT_URL, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'text/csv', Accept: 'application/json' },
    // Sent as text: the file's bytes as read by the browser (the server accepts up to 50 MiB).
    body: await file.text(),
  });
  const text = await response.text();
  if (!response.ok) throw errorFromResponse(response.status, response.statusText, text);
  return JSON.parse(text) as EnqueueResponse;
}

export const useImportContacts = (options: { onSuccess?: (r: EnqueueResponse) => void }) =>
  useMutation({ mutationFn: importContacts, ...options });
