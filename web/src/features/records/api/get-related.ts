import { queryOptions, useQuery } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';

import { recordsKeys } from './query-keys';
import { recordApiUrl } from './record-url';
import type { RelatedOf } from './types';

/** `GET /api/{type}/{id}/related`: the records linked to this one (the 50 newest of each). */
export const getRelated = <T extends RecordType>(type: T, id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<RelatedOf[T]>(`${recordApiUrl(type, id)}/related`, { signal });

export const getRelatedQueryOptions = <T extends RecordType>(type: T, id: string) =>
  queryOptions({ queryKey: recordsKeys.related(type, id), queryFn: ({ signal }) => getRelated(type, id, { signal }) });

export const useRelated = <T extends RecordType>(type: T, id: string) => useQuery(getRelatedQueryOptions(type, id));
