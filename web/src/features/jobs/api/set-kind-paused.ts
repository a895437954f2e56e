import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { jobsKeys } from './query-keys';

export type SetKindPausedInput = { kind: string; paused: boolean };
/** The answer of `pause` and `resume`: the kind and whether it is paused now. */
export type KindPaused = paths['/api/ops/kinds/{kind}/pause']['post']['responses'][200]['content']['application/json'];

/** `POST /api/ops/kinds/{kind}/pause` or `…/resume`. */
export const setKindPausedUrl = ({ kind, paused }: SetKindPausedInput) =>
  `/api/ops/kinds/${encodeURIComponent(kind)}/${paused ? 'pause' : 'resume'}`;

export const setKindPaused = (input: SetKindPausedInput): Promise<KindPaused> =>
  api.post<KindPaused>(setKindPausedUrl(input));

export const useSetKindPaused = ({ onSuccess }: { onSuccess?: (r: KindPaused) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setKindPaused,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: jobsKeys.queues });
      onSuccess?.(r);
    },
  });
};
