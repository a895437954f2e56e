import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { DashboardMetrics } from '@/types/openapi.gen';

import { dashboardKeys } from './query-keys';

export const DASHBOARD_METRICS_URL = '/api/dashboard/metrics';

/** `meetingConversionRate`: the 30-day meeting rate, the same as Campaign Performance's at 30 days. */
export type { DashboardMetrics };

export const getDashboardMetrics = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<DashboardMetrics>(DASHBOARD_METRICS_URL, { signal });

export const getDashboardMetricsQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.metrics(),
    queryFn: ({ signal }) => getDashboardMetrics({ signal }),
  });

export const useDashboardMetrics = () => useQuery(getDashboardMetricsQueryOptions());
