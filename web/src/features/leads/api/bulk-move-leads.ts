import { useMutation, useQueryClient } from '@tanstack/react-query';

import { contactsKeys } from '@/features/contacts/api/query-keys';
import { api } from '@/lib/api-client';
import type { ContactBulkStatusBody, StatusOutcome } from '@/types/openapi.gen';

export type BulkStatusResult = StatusOutcome;

/** Sets every listed contact to `status` in one transaction. */
export const bulkMoveLeads = (input: ContactBulkStatusBody) =>
  api.post<BulkStatusResult>('/api/contacts/bulk-status', input);

export const useBulkMoveLeads = (options: { onSuccess?: (r: BulkStatusResult) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkMoveLeads,
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactsKeys.all }),
    ...options,
  });
};
