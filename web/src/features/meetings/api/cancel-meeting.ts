import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dashboardKeys } from '@/features/dashboard/api/query-keys';
import { api } from '@/lib/api-client';

import { MEETINGS_URL } from './get-meetings';
import { meetingsKeys } from './query-keys';

/** Cancel Meeting deletes it (seed 001 §4: cancelled and removed). */
export const cancelMeeting = (id: string) => api.delete<undefined>(`${MEETINGS_URL}/${encodeURIComponent(id)}`);

export const useCancelMeeting = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelMeeting,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: meetingsKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
    ...options,
  });
};
