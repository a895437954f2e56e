import { useMutation, useQueryClient } from '@tanstack/react-query';

import { contactsKeys } from '@/features/contacts/api/query-keys';
import { api } from '@/lib/api-client';
import type { Contact } from '@/types/api';

/** A qualified lead becomes a customer (409 for any other status). */
export const convertToCustomer = (id: string) =>
  api.post<Contact>(`/api/contacts/${encodeURIComponent(id)}/convert-to-customer`);

export const useConvertToCustomer = (options: { onSuccess?: (c: Contact) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: convertToCustomer,
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactsKeys.all }),
    ...options,
  });
};
