import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dashboardKeys } from '@/features/dashboard/api/query-keys';
import { api } from '@/lib/api-client';
import type { Meeting } from '@/types/api';

import { MEETINGS_URL } from './get-meetings';
import { meetingsKeys } from './query-keys';

export const updateMeetingStatus = ({ id, status }: { id: string; status: 'confirmed' | 'completed' }) =>
  api.put<Meeting>(`${MEETINGS_URL}/${encodeURIComponent(id)}`, { status });

export const useUpdateMeetingStatus = (options: { onSuccess?: (m: Meeting) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMeetingStatus,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: meetingsKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
    ...options,
  });
};
