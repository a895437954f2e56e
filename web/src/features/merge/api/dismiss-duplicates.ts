import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { mergeKeys } from './query-keys';

type DismissOp = paths['/api/duplicates/dismiss']['post'];
export type DismissInput = NonNullable<DismissOp['requestBody']>['content']['application/json'];
type Dismissed = DismissOp['responses'][200]['content']['application/json'];

/** `POST /api/duplicates/dismiss`: these records are not duplicates of each other. */
export const dismissDuplicates = (input: DismissInput) =>
  api.post<Dismissed>('/api/duplicates/dismiss', input);

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
