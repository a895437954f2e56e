import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';
import type { ApiQuery, Page } from '@/types/api';
import type { Suppression as SuppressionView } from '@/types/openapi.gen';

import { emailConfigKeys } from './query-keys';

/** An address we never email: unsubscribed, hard-bounced, spam-reported or added by hand. */
export type Suppression = Omit<SuppressionView, 'reason'> & {
  // The server sends one of these; its schema says string (issue 24 §2).
  reason: 'unsubscribed' | 'hard_bounced' | 'spam_reported' | 'manual';
};

export type SuppressionFilters = { q: string; limit: number; offset: number };

/** `GET /api/email/suppressions`: newest first, `q` matches part of the address. */
export const getSuppressions = async (filters: SuppressionFilters, { signal }: { signal?: AbortSignal } = {}): Promise<Page<Suppression>> =>
  toPage(await api.request<Suppression[]>('GET', '/api/email/suppressions', { params: filters satisfies ApiQuery<'/api/email/suppressions', 'get'>, signal }));

export const useSuppressions = (filters: SuppressionFilters) =>
  useQuery(
    queryOptions({
      queryKey: emailConfigKeys.suppressionList(filters),
      queryFn: ({ signal }) => getSuppressions(filters, { signal }),
      placeholderData: keepPreviousData,
    }),
  );
