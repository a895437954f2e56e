import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { DEALS_URL } from './get-deals';
import { dealsKeys } from './query-keys';

export const deleteDeal = (id: string) => api.delete<undefined>(`${DEALS_URL}/${encodeURIComponent(id)}`);

export const useDeleteDeal = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDeal,
    onSettled: () => queryClient.invalidateQueries({ queryKey: dealsKeys.all }),
    ...options,
  });
};
