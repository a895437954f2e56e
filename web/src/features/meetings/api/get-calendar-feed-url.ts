import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { calendarKeys } from './query-keys';

/** `GET /api/calendar/feed-url`: the user's secret iCalendar subscription URL. */
export const useCalendarFeedUrl = (enabled: boolean) =>
  useQuery({
    queryKey: calendarKeys.feedUrl(),
    queryFn: ({ signal }) => api.get<{ url: string }>('/api/calendar/feed-url', { signal }),
    enabled,
    staleTime: Infinity,
  });
