import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';

import { campaignsKeys } from './query-keys';
import type { AudienceContact, TargetFilters } from './types';

export const AUDIENCE_PAGE = 50;

/**
 * A page of the contacts a targeting matches, by the same filter the send applies
 * (`GET /api/campaigns/bulk-email/audience/contacts`); `total` is every match.
 */
export const getAudienceContacts = (filters: TargetFilters, offset: number, { signal }: { signal?: AbortSignal } = {}) =>
  api
    .request<AudienceContact[]>('GET', '/api/campaigns/bulk-email/audience/contacts', {
      params: {
        scoreMin: filters.scoreMin,
        scoreMax: filters.scoreMax,
        statuses: filters.statuses?.join(','),
        states: filters.states?.join(','),
        limit: AUDIENCE_PAGE,
        offset,
      },
      signal,
    })
    .then(toPage);

/** Every page loaded so far; `fetchNextPage` loads the next 50 until all matches are listed. */
export const useAudienceContacts = (filters: TargetFilters) =>
  useInfiniteQuery({
    queryKey: campaignsKeys.audienceContacts(filters),
    queryFn: ({ pageParam, signal }) => getAudienceContacts(filters, pageParam, { signal }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      const more = last.exact ? loaded < last.total : last.items.length > 0;
      return more && last.items.length > 0 ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
  });
