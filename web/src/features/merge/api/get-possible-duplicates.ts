import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { mergeKeys } from './query-keys';
import type { MergeRecordType, PossibleDuplicate } from './types';

const URLS: Record<MergeRecordType, string> = { company: '/api/companies', contact: '/api/contacts' };

/** `GET /api/{companies|contacts}/{id}/duplicates`: records that may be the same one. */
export const getPossibleDuplicates = (type: MergeRecordType, id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<PossibleDuplicate[]>(`${URLS[type]}/${encodeURIComponent(id)}/duplicates`, { signal });

export const getPossibleDuplicatesQueryOptions = (type: MergeRecordType, id: string) =>
  queryOptions({
    queryKey: mergeKeys.possible(type, id),
    queryFn: ({ signal }) => getPossibleDuplicates(type, id, { signal }),
  });

export const usePossibleDuplicates = (type: MergeRecordType, id: string) =>
  useQuery(getPossibleDuplicatesQueryOptions(type, id));
