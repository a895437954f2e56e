import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** 202 with the scoring job, or 200 when every contact is already scored. */
export type BulkScoreAnswer = { jobId?: string; message?: string };

export const bulkAiScore = (contactIds: string[]) =>
  api.post<BulkScoreAnswer>('/api/contacts/bulk-ai-score', { contactIds, useEnterpriseModel: false });

export const useBulkAiScore = (options: { onSuccess: (a: BulkScoreAnswer) => void; onError: (e: Error) => void }) =>
  useMutation({ mutationFn: bulkAiScore, ...options });
