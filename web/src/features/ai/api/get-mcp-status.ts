import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { aiKeys } from './query-keys';
import type { McpStatus } from './types';

/** The integrations (AI model, voice, email, …), their health and throughput. */
export const getMcpStatus = ({ signal }: { signal?: AbortSignal } = {}) => api.get<McpStatus>('/api/mcp/status', { signal });

/** `refetchInterval`: the page's auto-refresh (30 s, or false when it is off). */
export const getMcpStatusQueryOptions = (refetchInterval: number | false = false) =>
  queryOptions({ queryKey: aiKeys.mcp(), queryFn: ({ signal }) => getMcpStatus({ signal }), refetchInterval });

export const useMcpStatus = (refetchInterval: number | false = false) => useQuery(getMcpStatusQueryOptions(refetchInterval));
