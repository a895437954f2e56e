import { api, toPage } from '@/lib/api-client';
import type { ApiQuery, Deal } from '@/types/api';

import type { DealStage } from './stages';

export const DEALS_URL = '/api/deals';

export type DealFilters = { stage?: DealStage; limit: number; offset: number };

/** A page of deals, newest first; the qualification stage includes the stage-less deals. */
export const getDeals = (filters: DealFilters, { signal }: { signal?: AbortSignal } = {}) =>
  api.request<Deal[]>('GET', DEALS_URL, { params: filters satisfies ApiQuery<'/api/deals', 'get'>, signal }).then(toPage);
