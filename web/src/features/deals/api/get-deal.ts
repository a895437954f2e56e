import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Deal } from '@/types/api';

import { DEALS_URL } from './get-deals';
import { dealsKeys } from './query-keys';

/** `GET /api/deals/{id}`. */
export const getDeal = (id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<Deal>(`${DEALS_URL}/${encodeURIComponent(id)}`, { signal });

export const getDealQueryOptions = (id: string) =>
  queryOptions({ queryKey: dealsKeys.detail(id), queryFn: ({ signal }) => getDeal(id, { signal }) });

export const useDeal = (id: string) => useQuery(getDealQueryOptions(id));
