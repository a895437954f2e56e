import { useMutation } from '@tanstack/react-query';

import type { Selection } from '@/features/outreach/api/types';
import { api } from '@/lib/api-client';

/** 202 with the scoring job, or 200 when every selected contact is already scored. */
export type BulkScoreAnswer = { jobId?: string; message?: string };

/**
 * Scores a selection in one job: picked contacts, or every contact the contacts list's filters match
 * (`{ contactFilter: {} }` is every contact; the server takes up to 10,000).
 */
export const bulkAiScore = (selection: Selection) =>
  api.post<BulkScoreAnswer>('/api/contacts/bulk-ai-score', { ...selection, useEnterpriseModel: false });

export const useBulkAiScore = (options: { onSuccess: (a: BulkScoreAnswer) => void; onError: (e: Error) => void }) =>
  useMutation({ mutationFn: bulkAiScore, ...options });
