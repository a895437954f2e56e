import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

type MergeBulkOp = paths['/api/merge/bulk']['post'];
export type MergeAllInput = NonNullable<MergeBulkOp['requestBody']>['content']['application/json'];
/** The 202: the `merge` job to follow. */
export type MergeAllStarted = MergeBulkOp['responses'][202]['content']['application/json'];

/** `POST /api/merge/bulk`: a background job merges every group of one kind (202 with the job). */
export const mergeAll = (input: MergeAllInput) => api.post<MergeAllStarted>('/api/merge/bulk', input);

export const useMergeAll = (options: { onSuccess?: (r: MergeAllStarted) => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: mergeAll, onSuccess: options.onSuccess, onError: options.onError });
