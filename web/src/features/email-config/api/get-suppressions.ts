import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';
import type { Page } from '@/types/api';

import { emailConfigKeys } from './query-keys';

/** An address we never email: unsubscribed, hard-bounced, spam-reported or added by hand. */
export type Suppression = {
  email: string;
  reason: 'unsubscribed' | 'hard_bounced' | 'spam_reported' | 'manual';
  /** Where it came from: `webhook`, `link:<list>`, `smtp`, … */
  source: string | null;
  contactId: string | null;
  createdAt: string;
};

export type SuppressionFilters = { q: string; limit: number; offset: number };

/** `GET /api/email/suppressions`: newest first, `q` matches part of the address. */
export const getSuppressions = async (filters: SuppressionFilters, { signal }: { signal?: AbortSignal } = {}): Promise<Page<Suppression>> =>
  toPage(await api.request<Suppression[]>('GET', '/api/email/suppressions', { params: filters, signal }));

export const useSuppressions = (filters: SuppressionFilters) =>
  useQuery(
    queryOptions({
      queryKey: emailConfigKeys.suppressionList(filters),
      queryFn: ({ signal }) => getSuppressions(filters, { signal }),
      placeholderData: keepPreviousData,
    }),
  );
