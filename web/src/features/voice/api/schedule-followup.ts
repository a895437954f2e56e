import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { voiceKeys } from './query-keys';

type FollowupOp = paths['/api/kojie/schedule-followup']['post'];
/** A call's body with `scheduledFor` (RFC 3339). */
export type FollowupInput = NonNullable<FollowupOp['requestBody']>['content']['application/json'];
export type FollowupScheduled = FollowupOp['responses'][202]['content']['application/json'];

/** `202`: a call placed at `scheduledFor`; `422 'Follow-up time must be in the future'`. */
export const scheduleFollowup = (input: FollowupInput) => api.post<FollowupScheduled>('/api/kojie/schedule-followup', input);

export const useScheduleFollowup = (options: { onSuccess: (r: FollowupScheduled) => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scheduleFollowup,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: voiceKeys.calls() });
      options.onSuccess(r);
    },
    onError: options.onError,
  });
};
