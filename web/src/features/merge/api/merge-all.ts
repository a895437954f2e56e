import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { DuplicateReason, MergeRecordType } from './types';

export type MergeAllInput = { recordType: MergeRecordType; reason: DuplicateReason };

/** `POST /api/merge/bulk`: a background job merges every group of one kind (202 with the job). */
export const mergeAll = (input: MergeAllInput) => api.post<{ jobId: string; status: string }>('/api/merge/bulk', input);

export const useMergeAll = (options: { onSuccess?: (r: { jobId: string }) => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: mergeAll, onSuccess: options.onSuccess, onError: options.onError });
