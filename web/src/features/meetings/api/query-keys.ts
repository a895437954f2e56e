import type { MeetingFilter } from './get-meetings';

/** Query keys of meetings; `all` is refreshed after every meeting change. */
export const meetingsKeys = {
  all: ['meetings'] as const,
  lists: () => [...meetingsKeys.all, 'list'] as const,
  list: (status: MeetingFilter) => [...meetingsKeys.lists(), status] as const,
};

/** Query keys of the calendar connection and the calendar feed. */
export const calendarKeys = {
  all: ['calendar'] as const,
  connection: () => [...calendarKeys.all, 'connection'] as const,
  feedUrl: () => [...calendarKeys.all, 'feed-url'] as const,
};
