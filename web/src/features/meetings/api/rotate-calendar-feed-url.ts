import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { calendarKeys } from './query-keys';

/** `POST /api/calendar/feed-url/rotate`: a new feed URL; the old one stops working at once. */
export const rotateCalendarFeedUrl = () => api.post<{ url: string }>('/api/calendar/feed-url/rotate');

export const useRotateCalendarFeedUrl = (options: { onSuccess?: () => void; onError?: (e: Error) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateCalendarFeedUrl,
    onSuccess: (feed) => {
      // The answer is the new URL: show it without another round trip.
      queryClient.setQueryData(calendarKeys.feedUrl(), feed);
      options.onSuccess?.();
    },
    onError: options.onError,
  });
};
