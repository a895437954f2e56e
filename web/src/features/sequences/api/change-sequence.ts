import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { sequencesKeys } from './query-keys';
import { SEQUENCES_URL, sequenceUrl, type Sequence, type SequenceStep } from './types';

export type NewSequence = {
  name: string;
  description: string;
  status: 'draft';
  triggerType: string;
  abTestingEnabled: boolean;
  maxDailyEnrollments: number;
};

export const createSequence = (body: NewSequence) => api.post<Sequence>(SEQUENCES_URL, body);
export const updateSequence = ({ id, ...patch }: { id: string } & Partial<Pick<Sequence, 'status'>>) =>
  api.patch<Sequence>(sequenceUrl(id), patch);
export const deleteSequence = (id: string) => api.delete<unknown>(sequenceUrl(id));

export type NewStep = { name: string; type: string; stepOrder: number; delayMinutes: number; config: Record<string, unknown> };
export const createStep = ({ sequenceId, ...body }: NewStep & { sequenceId: string }) =>
  api.post<SequenceStep>(`${sequenceUrl(sequenceId)}/steps`, body);
export const deleteStep = ({ sequenceId, stepId }: { sequenceId: string; stepId: string }) =>
  api.delete<unknown>(`${sequenceUrl(sequenceId)}/steps/${encodeURIComponent(stepId)}`);

type Callbacks<T> = { onSuccess?: (v: T) => void; onError?: (e: Error) => void };

/** Every sequence change refreshes the sequences, their steps and the tiles. */
function useSequenceMutation<A, T>(fn: (a: A) => Promise<T>, { onSuccess, onError }: Callbacks<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (v) => {
      void queryClient.invalidateQueries({ queryKey: sequencesKeys.all });
      onSuccess?.(v);
    },
    onError,
  });
}

export const useCreateSequence = (cb: Callbacks<Sequence>) => useSequenceMutation(createSequence, cb);
export const useUpdateSequence = (cb: Callbacks<Sequence>) => useSequenceMutation(updateSequence, cb);
export const useDeleteSequence = (cb: Callbacks<unknown>) => useSequenceMutation(deleteSequence, cb);
export const useCreateStep = (cb: Callbacks<SequenceStep>) => useSequenceMutation(createStep, cb);
export const useDeleteStep = (cb: Callbacks<unknown>) => useSequenceMutation(deleteStep, cb);
