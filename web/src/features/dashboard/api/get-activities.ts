import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';

import { dashboardKeys } from './query-keys';

export const ACTIVITIES_URL = '/api/activities';
/** Recent activity shows the latest 5 items (seed 000 §9); "Show more" adds this many. */
export const RECENT_ACTIVITY_COUNT = 5;
export const MORE_ACTIVITY_COUNT = 10;

/** One entry of the feed (`GET /api/activities`): what happened, when, and the screen it is about. */
export type FeedEntry = {
  id: string;
  /** e.g. `scan_finished`, `emails_sent`, `deal_created`, `meeting_scheduled`. */
  kind: string;
  summary: string;
  /** RFC 3339. */
  at: string;
  /** A path at the app's root (`/discovery?job=…`), or null. */
  link: string | null;
};

export type FeedPage = { entries: FeedEntry[]; total: number };

export const getActivities = (limit: number, { signal }: { signal?: AbortSignal } = {}) =>
  api
    .request<FeedEntry[]>('GET', ACTIVITIES_URL, { params: { limit }, signal })
    .then(toPage)
    .then(({ items, total }): FeedPage => ({ entries: items, total }));

export const getActivitiesQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: dashboardKeys.activities(limit),
    queryFn: ({ signal }) => getActivities(limit, { signal }),
    placeholderData: keepPreviousData,
  });

export const useActivities = (limit: number) => useQuery(getActivitiesQueryOptions(limit));
