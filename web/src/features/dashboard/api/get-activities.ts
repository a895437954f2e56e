import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Activity } from '@/types/api';

import { dashboardKeys } from './query-keys';

export const ACTIVITIES_URL = '/api/activities';
/** Recent activity shows the latest 5 items (seed 000 §9). */
export const RECENT_ACTIVITY_COUNT = 5;

export const getRecentActivities = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<Activity[]>(ACTIVITIES_URL, { params: { limit: RECENT_ACTIVITY_COUNT }, signal });

export const getRecentActivitiesQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.activities(),
    queryFn: ({ signal }) => getRecentActivities({ signal }),
  });

export const useRecentActivities = () => useQuery(getRecentActivitiesQueryOptions());
