import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';

import { recordsKeys, type TimelineShow } from './query-keys';
import { recordApiUrl } from './record-url';
import type { TimelinePage } from './types';

export const TIMELINE_PAGE_SIZE = 25;

/** `GET /api/{type}/{id}/timeline?limit=&before=&show=`: newest first, `nextCursor` for the next page. */
export const getTimeline = (
  type: RecordType,
  id: string,
  show: TimelineShow,
  before: string | null,
  { signal }: { signal?: AbortSignal } = {},
) =>
  api.get<TimelinePage>(`${recordApiUrl(type, id)}/timeline`, {
    params: { limit: TIMELINE_PAGE_SIZE, before, show: show === 'all' ? undefined : show },
    signal,
  });

export const getTimelineQueryOptions = (type: RecordType, id: string, show: TimelineShow) =>
  infiniteQueryOptions({
    queryKey: recordsKeys.timeline(type, id, show),
    queryFn: ({ pageParam, signal }) => getTimeline(type, id, show, pageParam, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useTimeline = (type: RecordType, id: string, show: TimelineShow) =>
  useInfiniteQuery(getTimelineQueryOptions(type, id, show));
