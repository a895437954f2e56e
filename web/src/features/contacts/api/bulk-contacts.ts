import { useMutation, useQueryClient } from '@tanstack/react-query';

import { companiesKeys } from '@/features/companies/api/query-keys';
import { recordsKeys } from '@/features/records/api/query-keys';
import { api } from '@/lib/api-client';
import type { ContactStatus } from '@/types/api';
import type { ContactBulkDeleteBody, ContactBulkStatusBody, DeleteOutcome, StatusOutcome } from '@/types/openapi.gen';

import { CONTACTS_URL } from './get-contacts';
import { contactsKeys } from './query-keys';

/** Contacts picked by hand, or every contact the list's filters match (resolved by the server, up to 10,000). */
export type ContactSelection = ContactBulkDeleteBody;

/** `message`: "3 contacts set to qualified (1 already qualified)". */
export type BulkStatusAnswer = StatusOutcome;
/** `message`: "Deleted 3 contacts". */
export type BulkDeleteAnswer = DeleteOutcome;

/** Sets the selection's status in one transaction (an unknown id changes nothing). */
export const bulkContactStatus = ({ selection, status }: { selection: ContactSelection; status: ContactStatus }) =>
  api.post<BulkStatusAnswer>(`${CONTACTS_URL}/bulk-status`, { status, ...selection } satisfies ContactBulkStatusBody);

/** Deletes the selection in one transaction, with its notes, tasks, enrollments and calls. */
export const bulkDeleteContacts = (selection: ContactSelection) => api.post<BulkDeleteAnswer>(`${CONTACTS_URL}/bulk-delete`, selection);

type Options<T> = { onSuccess?: (answer: T) => void; onError?: (e: Error) => void };

export const useBulkContactStatus = (options: Options<BulkStatusAnswer>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkContactStatus,
    onSuccess: async (answer) => {
      // Each change is on the contact's timeline too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: contactsKeys.all }),
        queryClient.invalidateQueries({ queryKey: recordsKeys.all }),
      ]);
      options.onSuccess?.(answer);
    },
    onError: options.onError,
  });
};

export const useBulkDeleteContacts = (options: Options<BulkDeleteAnswer>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkDeleteContacts,
    onSuccess: async (answer) => {
      // Companies count their contacts; record pages list them.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: contactsKeys.all }),
        queryClient.invalidateQueries({ queryKey: companiesKeys.all }),
        queryClient.invalidateQueries({ queryKey: recordsKeys.all }),
      ]);
      options.onSuccess?.(answer);
    },
    onError: options.onError,
  });
};
