import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { calendarKeys } from './query-keys';

/** The feed URL, as `GET /api/calendar/feed-url` and its rotation answer it. */
export type CalendarFeedUrl = paths['/api/calendar/feed-url']['get']['responses'][200]['content']['application/json'];

/** `GET /api/calendar/feed-url`: the user's secret iCalendar subscription URL. */
export const useCalendarFeedUrl = (enabled: boolean) =>
  useQuery({
    queryKey: calendarKeys.feedUrl(),
    queryFn: ({ signal }) => api.get<CalendarFeedUrl>('/api/calendar/feed-url', { signal }),
    enabled,
    staleTime: Infinity,
  });
