import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Deal } from '@/types/api';
import type { DealBody } from '@/types/openapi.gen';

import { DEALS_URL } from './get-deals';
import { dealsKeys } from './query-keys';

/** `POST /api/deals`, `PUT /api/deals/{id}`; `value` in whole dollars. */
export type DealInput = DealBody;

export const createDeal = (input: DealInput) => api.post<Deal>(DEALS_URL, input);

export const useCreateDeal = (options: { onSuccess?: (d: Deal) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDeal,
    onSuccess: async (deal) => {
      await queryClient.invalidateQueries({ queryKey: dealsKeys.all });
      options.onSuccess?.(deal);
    },
    onError: options.onError,
  });
};
