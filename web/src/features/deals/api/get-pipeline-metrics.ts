import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { dealsKeys } from './query-keys';

export type PipelineMetrics = {
  totalPipeline: number;
  qoqGrowth: number;
  activeDealsCount: number;
  weeklyGrowth: number;
  closeRate: number;
  targetCloseRate: number;
  isAboveTarget: boolean;
  avgCycleDays: number;
  targetCycle: number;
  industryAvgCycle: number;
  expectedCloseValue: number;
  conversionRate: number;
  industryAvgCloseRate: number;
  avgDealSize: number;
  industryAvgDealSize: number;
  pipelineVelocity: number;
  stageBreakdown: { stage: string; count: number; value: number }[];
};

export const getPipelineMetrics = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<PipelineMetrics>('/api/pipeline/metrics', { signal });

export const getPipelineMetricsQueryOptions = () =>
  queryOptions({ queryKey: dealsKeys.metrics(), queryFn: ({ signal }) => getPipelineMetrics({ signal }) });

export const usePipelineMetrics = () => useQuery(getPipelineMetricsQueryOptions());
