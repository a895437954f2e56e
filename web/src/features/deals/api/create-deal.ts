import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Deal } from '@/types/api';

import { DEALS_URL } from './get-deals';
import { dealsKeys } from './query-keys';
import type { DealStage } from './stages';

export type DealInput = {
  title: string;
  description: string | null;
  /** Whole dollars. */
  value: number;
  stage: DealStage;
  probability: number;
  expectedCloseDate: string | null;
  contactId: string | null;
  companyId: string | null;
  notes: string | null;
};

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
