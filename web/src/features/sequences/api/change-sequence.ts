import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { sequencesKeys } from './query-keys';
import { SEQUENCES_URL, sequenceUrl, type SendingWindow, type Sequence, type SequenceStep, type TargetFilters } from './types';

export type NewSequence = NonNullable<paths['/api/email-sequences']['post']['requestBody']>['content']['application/json'];

export const createSequence = (body: NewSequence) => api.post<Sequence>(SEQUENCES_URL, body);
type SequencePatchBody = NonNullable<paths['/api/email-sequences/{id}']['patch']['requestBody']>['content']['application/json'];
/** The settings the detail view edits; absent fields stay as they are. */
// `enrollmentRules` and `sendingWindow` have these shapes; the schema says only "object" (issue 24 §2).
export type SequencePatch = Omit<SequencePatchBody, 'enrollmentRules' | 'sendingWindow'> & {
  enrollmentRules?: TargetFilters;
  sendingWindow?: SendingWindow | null;
};
export const updateSequence = ({ id, ...patch }: { id: string } & SequencePatch) => api.patch<Sequence>(sequenceUrl(id), patch);
export const deleteSequence = (id: string) => api.delete<unknown>(sequenceUrl(id));

type StepBody = NonNullable<paths['/api/email-sequences/{id}/steps']['post']['requestBody']>['content']['application/json'];
/** Without `stepOrder` the server puts a new step last. */
// `config` is the step runner's object (its keys depend on `type`); the schema says only "object" (issue 24 §2).
export type NewStep = Omit<StepBody, 'config'> & { config?: Record<string, unknown> | null };
export const createStep = ({ sequenceId, ...body }: NewStep & { sequenceId: string }) =>
  api.post<SequenceStep>(`${sequenceUrl(sequenceId)}/steps`, body);
export const updateStep = ({ sequenceId, stepId, ...body }: NewStep & { sequenceId: string; stepId: string }) =>
  api.patch<SequenceStep>(`${sequenceUrl(sequenceId)}/steps/${encodeURIComponent(stepId)}`, body);
/** Every step id of the sequence, in the new running order. */
export const reorderSteps = ({ sequenceId, stepIds }: { sequenceId: string; stepIds: string[] }) =>
  api.post<SequenceStep[]>(`${sequenceUrl(sequenceId)}/steps/reorder`, { stepIds });
export const deleteStep = ({ sequenceId, stepId }: { sequenceId: string; stepId: string }) =>
  api.delete<unknown>(`${sequenceUrl(sequenceId)}/steps/${encodeURIComponent(stepId)}`);

export type Callbacks<T> = { onSuccess?: (v: T) => void; onError?: (e: Error) => void };

/** Every sequence change refreshes the sequences, their steps and the tiles. */
export function useSequenceMutation<A, T>(fn: (a: A) => Promise<T>, { onSuccess, onError }: Callbacks<T>) {
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
export const useUpdateStep = (cb: Callbacks<SequenceStep>) => useSequenceMutation(updateStep, cb);
export const useDeleteStep = (cb: Callbacks<unknown>) => useSequenceMutation(deleteStep, cb);
export const useReorderSteps = (cb: Callbacks<SequenceStep[]>) => useSequenceMutation(reorderSteps, cb);
