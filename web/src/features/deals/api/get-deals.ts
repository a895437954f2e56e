import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';
import type { Deal } from '@/types/api';

import { dealsKeys } from './query-keys';

export const DEALS_URL = '/api/deals';
/** The board shows up to the API's page maximum. */
export const BOARD_DEAL_LIMIT = 1000;

export const getDeals = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.request<Deal[]>('GET', DEALS_URL, { params: { limit: BOARD_DEAL_LIMIT }, signal }).then(toPage);

export const getDealsQueryOptions = () =>
  queryOptions({ queryKey: dealsKeys.list(), queryFn: ({ signal }) => getDeals({ signal }) });

export const useDeals = () => useQuery(getDealsQueryOptions());
