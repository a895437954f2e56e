/** Query keys of the dashboard; `all` is what Refresh refetches. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  metrics: ['dashboard', 'metrics'] as const,
  campaignPerformance: (timeframe: Timeframe) => ['dashboard', 'campaign-performance', timeframe] as const,
  regional: ['dashboard', 'regional'] as const,
  activities: ['dashboard', 'activities'] as const,
  emailAnalytics: ['dashboard', 'email-analytics'] as const,
};

/** Campaign-performance windows in days (seed 000 §9), default 7. */
export const TIMEFRAMES = [7, 30, 90] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
