import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Deal } from '@/types/api';

import type { DealInput } from './create-deal';
import { DEALS_URL } from './get-deals';
import { dealsKeys } from './query-keys';

/**
 * `PUT /api/deals/{id}`: the edit form sends the whole deal, a record page only the field that
 * changed (the server applies what is present; a stage without a probability takes the stage's).
 */
export const updateDeal = ({ id, ...input }: Partial<DealInput> & { id: string }) =>
  api.put<Deal>(`${DEALS_URL}/${encodeURIComponent(id)}`, input);

export const useUpdateDeal = (options: { onSuccess?: (d: Deal) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDeal,
    onSuccess: async (deal) => {
      await queryClient.invalidateQueries({ queryKey: dealsKeys.all });
      options.onSuccess?.(deal);
    },
    onError: options.onError,
  });
};
