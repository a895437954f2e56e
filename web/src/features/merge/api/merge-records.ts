import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';
import { companiesKeys } from '@/features/companies/api/query-keys';
import { contactsKeys } from '@/features/contacts/api/query-keys';
import { recordsKeys } from '@/features/records/api/query-keys';

import { mergeKeys } from './query-keys';
import type { MergeOutcome } from './types';

export type MergeInput = NonNullable<paths['/api/merge']['post']['requestBody']>['content']['application/json'];

/** `POST /api/merge`: folds `mergeIds` into the survivor at once (one transaction). */
export const mergeRecords = (input: MergeInput) => api.post<MergeOutcome>('/api/merge', input);

/** Everything a merge changes: suggestions, the lists and the record pages. */
export const MERGE_TOUCHES = [mergeKeys.all, companiesKeys.all, contactsKeys.all, recordsKeys.all] as const;

export const useMergeRecords = (options: { onSuccess?: (o: MergeOutcome, input: MergeInput) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: mergeRecords,
    onSuccess: async (outcome, input) => {
      await Promise.all(MERGE_TOUCHES.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      options.onSuccess?.(outcome, input);
    },
    onError: options.onError,
  });
};
