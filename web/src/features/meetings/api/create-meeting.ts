import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dashboardKeys } from '@/features/dashboard/api/query-keys';
import { api } from '@/lib/api-client';
import type { Meeting } from '@/types/api';

import { MEETINGS_URL } from './get-meetings';
import { meetingsKeys } from './query-keys';

export const MEETING_TYPES = ['discovery', 'demo', 'proposal', 'closing', 'follow-up'] as const;

export type MeetingInput = {
  title: string;
  description: string | null;
  companyId: string | null;
  contactId: string | null;
  /** ISO 8601 with the time zone. */
  scheduledDate: string;
  /** Whole minutes. */
  duration: number;
  location: string | null;
  meetingType: (typeof MEETING_TYPES)[number];
  agenda: string | null;
  attendees: string | null;
};

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
