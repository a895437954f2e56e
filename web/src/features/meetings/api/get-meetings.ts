import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';
import type { Meeting } from '@/types/api';

import { meetingsKeys } from './query-keys';

export const MEETINGS_URL = '/api/meetings';
export const MEETINGS_PAGE_SIZE = 100;

/** The status filter's choices; 'all' sends no filter. */
export const MEETING_FILTERS = ['all', 'scheduled', 'confirmed', 'completed', 'cancelled'] as const;
export type MeetingFilter = (typeof MEETING_FILTERS)[number];

export const getMeetings = (status: MeetingFilter, { signal }: { signal?: AbortSignal } = {}) =>
  api
    .request<Meeting[]>('GET', MEETINGS_URL, {
      params: { status: status === 'all' ? undefined : status, limit: MEETINGS_PAGE_SIZE },
      signal,
    })
    .then(toPage);

export const getMeetingsQueryOptions = (status: MeetingFilter) =>
  queryOptions({
    queryKey: meetingsKeys.list(status),
    queryFn: ({ signal }) => getMeetings(status, { signal }),
    placeholderData: keepPreviousData,
  });

export const useMeetings = (status: MeetingFilter) => useQuery(getMeetingsQueryOptions(status));
