import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignsKeys } from './query-keys';
import type { TargetFilters } from './types';

/** How many contacts a targeting matches (`GET /api/campaigns/bulk-email/audience`). */
export const getAudienceCount = (filters: TargetFilters, { signal }: { signal?: AbortSignal } = {}) =>
  api
    .get<{ count: number }>('/api/campaigns/bulk-email/audience', {
      params: {
        scoreMin: filters.scoreMin,
        scoreMax: filters.scoreMax,
        statuses: filters.statuses?.join(','),
        states: filters.states?.join(','),
      },
      signal,
    })
    .then((r) => r.count);

export const useAudienceCount = (filters: TargetFilters) =>
  useQuery(
    queryOptions({
      queryKey: campaignsKeys.audience(filters),
      queryFn: ({ signal }) => getAudienceCount(filters, { signal }),
      placeholderData: keepPreviousData,
    }),
  );
