import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { dashboardKeys, type Timeframe } from './query-keys';

export const CAMPAIGN_PERFORMANCE_URL = '/api/dashboard/campaign-performance';

export type CampaignPerformance = {
  timeframe: number;
  deliveryRate: number;
  responseRate: number;
  meetingRate: number;
  /** False while no email has been sent in the window. */
  emailDataAvailable: boolean;
  meetingsCreated: number;
  contactsContacted: number;
};

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
