import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths, SearchGroup as GenSearchGroup, SearchHit } from '@/types/openapi.gen';

/** `GET /api/search` (docs/records.md): one search across the workspace. */

/** The types of result the server sends today; an unknown type from a newer server still shows. */
export type SearchResultType = 'company' | 'contact' | 'deal' | 'campaign' | 'sequence' | 'invoice' | 'job';

/** One hit; `href` is a root path, e.g. `/companies/{id}` or `/email-campaigns?campaign={id}`. */
export type SearchResult = SearchHit;

/** The hits of one type; `total` is its match count, capped at 1,000 (`totalCapped`). */
export type SearchGroup = GenSearchGroup;

export type SearchAnswer = paths['/api/search']['get']['responses'][200]['content']['application/json'];

/** The server answers 400 below this many characters (after trimming). */
export const SEARCH_MIN_CHARS = 2;
export const SEARCH_MAX_CHARS = 100;

export const search = (q: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<SearchAnswer>('/api/search', { params: { q }, signal });

export const searchKeys = {
  all: ['search'] as const,
  query: (q: string) => [...searchKeys.all, q] as const,
};

export const getSearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: searchKeys.query(q),
    queryFn: ({ signal }) => search(q, { signal }),
    // Records change as people work: a search a minute old is asked again.
    staleTime: 60_000,
  });

/** Results for `q` (already trimmed); nothing is asked below 2 characters. The last answer stays while the next loads. */
export const useSearch = (q: string) =>
  useQuery({
    ...getSearchQueryOptions(q),
    enabled: q.length >= SEARCH_MIN_CHARS,
    placeholderData: keepPreviousData,
  });
