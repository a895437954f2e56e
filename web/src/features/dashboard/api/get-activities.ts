import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';
import type { Activity } from '@/types/api';

import { dashboardKeys } from './query-keys';

export const ACTIVITIES_URL = '/api/activities';
/** Recent activity shows the latest 5 items (seed 000 §9); "Show more" adds this many. */
export const RECENT_ACTIVITY_COUNT = 5;
export const MORE_ACTIVITY_COUNT = 10;

/** One entry of the feed (`GET /api/activities`): what happened, when, and the screen it is about. */
export type FeedEntry = Activity;

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
