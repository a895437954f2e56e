import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { dashboardKeys, type Timeframe } from './query-keys';

export const CAMPAIGN_PERFORMANCE_URL = '/api/dashboard/campaign-performance';

/** Counts and rates of the messages sent in a window, as every screen shows them (docs/figures.md). */
export type EmailFigures = {
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  replied: number;
  bounced: number;
  unsubscribed: number;
  complained: number;
  deliveryRate: number;
  openRate: number;
  clickRate: number;
  replyRate: number;
  bounceRate: number;
  unsubscribeRate: number;
  complaintRate: number;
};

export type CampaignPerformance = {
  timeframe: number;
  /** Delivered / sent, percent. */
  deliveryRate: number;
  /** Replied / sent, percent. */
  responseRate: number;
  /** Contacts contacted in the window who booked a meeting in it, per contact contacted (≤ 100). */
  meetingRate: number;
  /** False while no email has been sent in the window. */
  emailDataAvailable: boolean;
  meetingsCreated: number;
  contactsContacted: number;
  emails: EmailFigures;
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
