import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';

import { sequencesKeys } from './query-keys';
import { sequenceUrl, type Enrollment } from './types';

export const ENROLLMENTS_PAGE = 25;

/** One page of a sequence's enrollments (soonest next send first), `status` '' for all. */
export const getEnrollments = (id: string, { status, offset }: { status: string; offset: number }, { signal }: { signal?: AbortSignal } = {}) =>
  api
    .request<Enrollment[]>('GET', `${sequenceUrl(id)}/enrollments`, {
      params: { status: status || undefined, limit: ENROLLMENTS_PAGE, offset },
      signal,
    })
    .then(toPage);

export const useEnrollments = (id: string, params: { status: string; offset: number }) =>
  useQuery(
    queryOptions({
      queryKey: sequencesKeys.enrollments(id, params),
      queryFn: ({ signal }) => getEnrollments(id, params, { signal }),
      placeholderData: keepPreviousData,
    }),
  );
