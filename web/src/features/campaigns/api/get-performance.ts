import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignsKeys } from './query-keys';
import type { CampaignPerformance } from './types';

export const getPerformance = ({ signal }: { signal?: AbortSignal } = {}) =>
  api
    .get<{ success: boolean; performance: CampaignPerformance }>('/api/campaigns/bulk-email/performance/overview', { signal })
    .then((r) => r.performance);

export const usePerformance = () =>
  useQuery(queryOptions({ queryKey: campaignsKeys.performance(), queryFn: ({ signal }) => getPerformance({ signal }) }));
