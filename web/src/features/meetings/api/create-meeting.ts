import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dashboardKeys } from '@/features/dashboard/api/query-keys';
import { api } from '@/lib/api-client';
import type { Meeting } from '@/types/api';
import type { paths } from '@/types/openapi.gen';

import { MEETINGS_URL } from './get-meetings';
import { meetingsKeys } from './query-keys';

export const MEETING_TYPES = ['discovery', 'demo', 'proposal', 'closing', 'follow-up'] as const;

/** `POST /api/meetings`: `scheduledDate` ISO 8601 with the time zone, `duration` whole minutes. */
export type MeetingInput = NonNullable<paths['/api/meetings']['post']['requestBody']>['content']['application/json'];

export const createMeeting = (input: MeetingInput) => api.post<Meeting>(MEETINGS_URL, input);

export const useCreateMeeting = (options: { onSuccess?: (m: Meeting) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMeeting,
    onSuccess: async (meeting) => {
      await queryClient.invalidateQueries({ queryKey: meetingsKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
      options.onSuccess?.(meeting);
    },
    onError: options.onError,
  });
};
