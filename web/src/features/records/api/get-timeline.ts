import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';

import { recordsKeys } from './query-keys';
import { recordApiUrl } from './record-url';
import type { TimelinePage } from './types';

export const TIMELINE_PAGE_SIZE = 25;

/** `GET /api/{type}/{id}/timeline?limit=&before=`: newest first, `nextCursor` for the next page. */
export const getTimeline = (
  type: RecordType,
  id: string,
  before: string | null,
  { signal }: { signal?: AbortSignal } = {},
) =>
  api.get<TimelinePage>(`${recordApiUrl(type, id)}/timeline`, {
    params: { limit: TIMELINE_PAGE_SIZE, before },
    signal,
  });

export const getTimelineQueryOptions = (type: RecordType, id: string) =>
  infiniteQueryOptions({
    queryKey: recordsKeys.timeline(type, id),
    queryFn: ({ pageParam, signal }) => getTimeline(type, id, pageParam, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useTimeline = (type: RecordType, id: string) => useInfiniteQuery(getTimelineQueryOptions(type, id));
