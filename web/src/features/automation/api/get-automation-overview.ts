import { useQueries } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { GetAnswer } from '@/types/openapi-helpers';

import { automationKeys } from './query-keys';

export type CampaignMetrics = GetAnswer<'/api/campaign-metrics'>;
export type ScoringInsights = GetAnswer<'/api/scoring-insights'>;
export type PaymentAnalytics = GetAnswer<'/api/payment/analytics'>;
export type CalendarStats = GetAnswer<'/api/calendar/stats'>;
export type Execution = GetAnswer<'/api/campaign-executions'>[number];
export type UpcomingMeeting = GetAnswer<'/api/calendar/meetings'>[number];

export type AutomationOverview = {
  metrics: CampaignMetrics;
  insights: ScoringInsights;
  payments: PaymentAnalytics;
  calendar: CalendarStats;
  executions: Execution[];
  meetings: UpcomingMeeting[];
  /** Which calls failed: their figures show as zeros (seed 002 §7). */
  failed: string[];
  pending: boolean;
};

const ZERO: Omit<AutomationOverview, 'failed' | 'pending'> = {
  metrics: { active: 0, completed: 0, failed: 0, paused: 0 },
  insights: { averageScore: 0, highValueCount: 0, totalContacts: 0, scoringDistribution: [] },
  payments: { totalRevenue: 0, totalTransactions: 0, successfulPayments: 0, failedPayments: 0 },
  calendar: { totalMeetings: 0, upcomingMeetings: 0, completedMeetings: 0, averageMeetingDuration: 0 },
  executions: [],
  meetings: [],
};

const CALLS = [
  ['metrics', '/api/campaign-metrics', {}],
  ['insights', '/api/scoring-insights', {}],
  ['payments', '/api/payment/analytics', {}],
  ['calendar', '/api/calendar/stats', {}],
  ['executions', '/api/campaign-executions', { status: 'active' }],
  ['meetings', '/api/calendar/meetings', { limit: 5 }],
] as const;

/** The automation screen's six reads, each falling back to zeros on its own. */
export function useAutomationOverview(): AutomationOverview {
  const results = useQueries({
    queries: CALLS.map(([name, url, params]) => ({
      queryKey: automationKeys.section(name),
      queryFn: ({ signal }: { signal: AbortSignal }) => api.get<unknown>(url, { params, signal }),
    })),
  });
  const pick = <K extends keyof typeof ZERO>(i: number, key: K) => (results[i]?.data ?? ZERO[key]) as (typeof ZERO)[K];
  return {
    metrics: pick(0, 'metrics'),
    insights: pick(1, 'insights'),
    payments: pick(2, 'payments'),
    calendar: pick(3, 'calendar'),
    executions: pick(4, 'executions'),
    meetings: pick(5, 'meetings'),
    failed: CALLS.filter((_, i) => results[i]?.isError).map(([name]) => name),
    pending: results.some((r) => r.isPending),
  };
}
