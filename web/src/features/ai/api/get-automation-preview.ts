import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { aiKeys } from './query-keys';
import type { AutomationPreview } from './types';

/** Integration categories, workflow templates and projections from real activity. */
export const getAutomationPreview = ({ signal }: { signal?: AbortSignal } = {}) => api.get<AutomationPreview>('/api/automation/preview', { signal });

/** `refetchInterval`: the page's auto-refresh (30 s, or false when it is off). */
export const getAutomationPreviewQueryOptions = (refetchInterval: number | false = false) =>
  queryOptions({ queryKey: aiKeys.automationPreview(), queryFn: ({ signal }) => getAutomationPreview({ signal }), refetchInterval });

export const useAutomationPreview = (refetchInterval: number | false = false) => useQuery(getAutomationPreviewQueryOptions(refetchInterval));
