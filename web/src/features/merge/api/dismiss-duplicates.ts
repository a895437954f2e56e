import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { mergeKeys } from './query-keys';
import type { MergeRecordType } from './types';

export type DismissInput = { recordType: MergeRecordType; ids: string[] };

/** `POST /api/duplicates/dismiss`: these records are not duplicates of each other. */
export const dismissDuplicates = (input: DismissInput) =>
  api.post<{ dismissedPairs: number }>('/api/duplicates/dismiss', input);

export const useDismissDuplicates = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissDuplicates,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: mergeKeys.all });
      options.onSuccess?.();
    },
    onError: options.onError,
  });
};
