import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { voiceKeys } from './query-keys';
import type { CallInput } from './types';

export type FollowupInput = CallInput & {
  /** RFC 3339. */
  scheduledFor: string;
};

export type FollowupScheduled = { callId: string; jobId: string; status: 'scheduled'; scheduledFor: string; simulated: boolean };

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
