import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { BulkPerformanceOverview } from '@/types/openapi.gen';

import { campaignsKeys } from './query-keys';

export const getPerformance = ({ signal }: { signal?: AbortSignal } = {}) =>
  api
    .get<BulkPerformanceOverview>('/api/campaigns/bulk-email/performance/overview', { signal })
    .then((r) => r.performance);

export const usePerformance = () =>
  useQuery(queryOptions({ queryKey: campaignsKeys.performance(), queryFn: ({ signal }) => getPerformance({ signal }) }));
