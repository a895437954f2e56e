import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';

import { mergeKeys, type DuplicateListParams } from './query-keys';
import type { DuplicateGroup } from './types';

/** `GET /api/duplicates`: suggestion groups, largest first, with `X-Total-Count`. */
export const getDuplicates = (params: DuplicateListParams, { signal }: { signal?: AbortSignal } = {}) =>
  api.request<DuplicateGroup[]>('GET', '/api/duplicates', { params, signal }).then(toPage);

export const getDuplicatesQueryOptions = (params: DuplicateListParams) =>
  queryOptions({
    queryKey: mergeKeys.groups(params),
    queryFn: ({ signal }) => getDuplicates(params, { signal }),
    placeholderData: keepPreviousData,
  });

export const useDuplicates = (params: DuplicateListParams) => useQuery(getDuplicatesQueryOptions(params));
