import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { aiKeys } from './query-keys';
import type { AiAnalytics } from './types';

/** The agents' work, insights and model figures, computed from the jobs table and the CRM's data. */
export const getAiAnalytics = ({ signal }: { signal?: AbortSignal } = {}) => api.get<AiAnalytics>('/api/ai/analytics', { signal });

/** `refetchInterval`: the page's auto-refresh (30 s, or false when it is off). */
export const getAiAnalyticsQueryOptions = (refetchInterval: number | false = false) =>
  queryOptions({ queryKey: aiKeys.analytics(), queryFn: ({ signal }) => getAiAnalytics({ signal }), refetchInterval });

export const useAiAnalytics = (refetchInterval: number | false = false) => useQuery(getAiAnalyticsQueryOptions(refetchInterval));
