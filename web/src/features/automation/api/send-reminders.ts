import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export type RemindersSent = { emailsSent: number; smsSent: number; meetings: number };

export const sendReminders = () =>
  api.post<RemindersSent>('/api/calendar/send-reminders', {
    includeEmail: true,
    includeSMS: true,
    personalizeMessages: true,
    triggerAutomation: false,
  });

export const useSendReminders = (options: { onSuccess: (r: RemindersSent) => void; onError: (e: Error) => void }) =>
  useMutation({ mutationFn: sendReminders, ...options });
