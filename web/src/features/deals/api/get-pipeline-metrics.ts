import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { PipelineMetrics } from '@/types/openapi.gen';

import { dealsKeys } from './query-keys';

export type { PipelineMetrics };

export const getPipelineMetrics = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<PipelineMetrics>('/api/pipeline/metrics', { signal });

export const getPipelineMetricsQueryOptions = () =>
  queryOptions({ queryKey: dealsKeys.metrics(), queryFn: ({ signal }) => getPipelineMetrics({ signal }) });

export const usePipelineMetrics = () => useQuery(getPipelineMetricsQueryOptions());
