/** Query keys of the dashboard; `all` is what Refresh refetches. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  metrics: () => [...dashboardKeys.all, 'metrics'] as const,
  campaignPerformance: (timeframe: Timeframe) => [...dashboardKeys.all, 'campaign-performance', timeframe] as const,
  regional: () => [...dashboardKeys.all, 'regional'] as const,
  activities: (limit: number) => [...dashboardKeys.all, 'activities', limit] as const,
  emailAnalytics: () => [...dashboardKeys.all, 'email-analytics'] as const,
  customerReport: (state: string) => [...dashboardKeys.all, 'customer-report', state] as const,
};

/** Campaign-performance windows in days (seed 000 §9), default 7. */
export const TIMEFRAMES = [7, 30, 90] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
