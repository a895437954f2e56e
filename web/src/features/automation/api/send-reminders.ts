import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** What the `reminder_batch` job reports when it ends. */
export type RemindersResult = {
  meetings: number;
  alreadyReminded: number;
  emailsSent: number;
  /** Waiting in the queue (sending limits, deferrals): they go out later. */
  emailsQueued: number;
  smsSent: number;
  smsNotSent: number;
};

/** Starts the reminders job (`POST /api/calendar/send-reminders`, 202 with the job to follow). */
export const sendReminders = () =>
  api.post<{ jobId: string; status: string }>('/api/calendar/send-reminders', {
    includeEmail: true,
    includeSMS: true,
    personalizeMessages: true,
    triggerAutomation: false,
  });

export const useSendReminders = (options: { onSuccess: (r: { jobId: string }) => void; onError: (e: Error) => void }) =>
  useMutation({ mutationFn: sendReminders, ...options });
