import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Deal } from '@/types/api';

import { DEALS_URL } from './get-deals';
import { dealsKeys } from './query-keys';

/** Advances one stage on the server (409 'No next stage available' at closed_won). */
export const moveDealToNextStage = (id: string) =>
  api.post<Deal>(`${DEALS_URL}/${encodeURIComponent(id)}/next-stage`);

export const useMoveDeal = (options: { onSuccess?: (d: Deal) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveDealToNextStage,
    onSettled: () => queryClient.invalidateQueries({ queryKey: dealsKeys.all }),
    ...options,
  });
};
