import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CampaignPerformance } from '@/types/openapi.gen';

import { dashboardKeys, type Timeframe } from './query-keys';

export const CAMPAIGN_PERFORMANCE_URL = '/api/dashboard/campaign-performance';

/**
 * `deliveryRate`: delivered / sent, `responseRate`: replied / sent, `meetingRate`: contacts contacted
 * in the window who booked a meeting in it, per contact contacted (percent, ≤ 100);
 * `emailDataAvailable` is false while no email has been sent in the window.
 */
export type { CampaignPerformance };

export const getCampaignPerformance = (timeframe: Timeframe, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<CampaignPerformance>(CAMPAIGN_PERFORMANCE_URL, { params: { timeframe }, signal });

export const getCampaignPerformanceQueryOptions = (timeframe: Timeframe) =>
  queryOptions({
    queryKey: dashboardKeys.campaignPerformance(timeframe),
    queryFn: ({ signal }) => getCampaignPerformance(timeframe, { signal }),
    placeholderData: keepPreviousData,
  });

export const useCampaignPerformance = (timeframe: Timeframe) =>
  useQuery(getCampaignPerformanceQueryOptions(timeframe));
