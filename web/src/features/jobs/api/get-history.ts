import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { jobsKeys } from './query-keys';

export const HISTORY_URL = '/api/ops/history';
/** The charts move by the minute; a refresh every 10 s is plenty. */
export const HISTORY_REFRESH_MS = 10_000;

/** Jobs of one kind that finished in one bucket of time. */
export type HistoryBucket = {
  at: string;
  kind: string;
  succeeded: number;
  failed: number;
  cancelled: number;
};

/** `GET /api/ops/history`: only buckets in which something finished, oldest first. */
export type History = {
  bucketSeconds: number;
  from: string;
  until: string;
  buckets: HistoryBucket[];
};

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
