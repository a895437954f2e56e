import { useMutation, useQueryClient } from '@tanstack/react-query';

import { contactsKeys } from '@/features/contacts/api/query-keys';
import { api } from '@/lib/api-client';
import type { Contact } from '@/types/api';
import type { MoveBody } from '@/types/openapi.gen';

export type Direction = 'forward' | 'back';

/** One step along new_lead → email_sent → meeting_scheduled → qualified (409 past either end). */
export const moveLead = ({ id, direction }: { id: string; direction: Direction }) =>
  api.post<Contact>(`/api/contacts/${encodeURIComponent(id)}/pipeline-move`, { direction } satisfies MoveBody);

export const useMoveLead = (options: { onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveLead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactsKeys.all }),
    onError: options.onError,
  });
};
