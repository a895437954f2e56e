import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { calendarKeys } from './query-keys';

type RotatedFeedUrl = paths['/api/calendar/feed-url/rotate']['post']['responses'][200]['content']['application/json'];

/** `POST /api/calendar/feed-url/rotate`: a new feed URL; the old one stops working at once. */
export const rotateCalendarFeedUrl = () => api.post<RotatedFeedUrl>('/api/calendar/feed-url/rotate');

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
