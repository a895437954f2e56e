import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { JobHistoryBucket, paths } from '@/types/openapi.gen';

import { jobsKeys } from './query-keys';

export const HISTORY_URL = '/api/ops/history';
/** The charts move by the minute; a refresh every 10 s is plenty. */
export const HISTORY_REFRESH_MS = 10_000;

/** Jobs of one kind that finished in one bucket of time. */
export type HistoryBucket = JobHistoryBucket;

/** `GET /api/ops/history`: only buckets in which something finished, oldest first. */
export type History = paths['/api/ops/history']['get']['responses'][200]['content']['application/json'];

export const getHistory = ({ minutes, signal }: { minutes: number; signal?: AbortSignal }): Promise<History> =>
  api.get<History>(HISTORY_URL, { params: { minutes }, signal });

export const getHistoryQueryOptions = (minutes: number) =>
  queryOptions({
    queryKey: jobsKeys.history(minutes),
    queryFn: ({ signal }) => getHistory({ minutes, signal }),
    refetchInterval: HISTORY_REFRESH_MS,
    refetchIntervalInBackground: false,
  });

export const useHistory = (minutes: number) => useQuery(getHistoryQueryOptions(minutes));
