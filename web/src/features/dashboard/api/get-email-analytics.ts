import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EmailAnalytics } from '@/types/openapi.gen';

import { dashboardKeys } from './query-keys';

export const EMAIL_ANALYTICS_URL = '/api/email/analytics';
/** The email card's window stays at 30 days whatever the timeframe buttons say. */
export const EMAIL_ANALYTICS_DAYS = 30;

export type { EmailAnalytics };

export const getEmailAnalytics = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<EmailAnalytics>(EMAIL_ANALYTICS_URL, { params: { timeframe: EMAIL_ANALYTICS_DAYS }, signal });

export const getEmailAnalyticsQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.emailAnalytics(),
    queryFn: ({ signal }) => getEmailAnalytics({ signal }),
  });

export const useEmailAnalytics = () => useQuery(getEmailAnalyticsQueryOptions());
