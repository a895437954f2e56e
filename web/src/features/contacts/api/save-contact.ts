import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Contact } from '@/types/api';
import type { ContactBody } from '@/types/openapi.gen';

import { CONTACTS_URL } from './get-contacts';
import { contactsKeys } from './query-keys';

/** `POST /api/contacts`, `PUT /api/contacts/{id}` (a PUT changes only the fields present). */
export type ContactInput = ContactBody;

export const createContact = (input: ContactInput) => api.post<Contact>(CONTACTS_URL, input);

export const updateContact = (id: string, input: Partial<ContactInput>) =>
  api.put<Contact>(`${CONTACTS_URL}/${encodeURIComponent(id)}`, input);

/** Adds a contact (no id) or saves an existing one; refreshes every contact read. */
export const useSaveContact = (options: { onSuccess?: (c: Contact) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: ContactInput }) =>
      id ? updateContact(id, input) : createContact(input),
    onSuccess: async (contact) => {
      await queryClient.invalidateQueries({ queryKey: contactsKeys.all });
      options.onSuccess?.(contact);
    },
    onError: options.onError,
  });
};

/** `PUT /api/contacts/{id}` with only the fields that changed (the server keeps the others). */
export const useUpdateContact = (options: { onSuccess?: (c: Contact) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: Partial<ContactInput> }) => updateContact(id, input),
    onSuccess: async (contact) => {
      await queryClient.invalidateQueries({ queryKey: contactsKeys.all });
      options.onSuccess?.(contact);
    },
    onError: options.onError,
  });
};
