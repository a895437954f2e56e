import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { jobsKeys } from './query-keys';

export type SetKindPausedInput = { kind: string; paused: boolean };

/** `POST /api/ops/kinds/{kind}/pause` or `…/resume`. */
export const setKindPausedUrl = ({ kind, paused }: SetKindPausedInput) =>
  `/api/ops/kinds/${encodeURIComponent(kind)}/${paused ? 'pause' : 'resume'}`;

export const setKindPaused = (input: SetKindPausedInput): Promise<SetKindPausedInput> =>
  api.post<SetKindPausedInput>(setKindPausedUrl(input));

export const useSetKindPaused = ({ onSuccess }: { onSuccess?: (r: SetKindPausedInput) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setKindPaused,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: jobsKeys.queues });
      onSuccess?.(r);
    },
  });
};
