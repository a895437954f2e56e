import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Job } from '@/types/api';

import { discoveryKeys } from './query-keys';

/**
 * The newest discovery scan still queued or running, so a reloaded page finds it again
 * (`GET /api/discovery/scans/active`, open to every signed-in user). Null when there is none.
 */
export const findActiveScan = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<Job | null>('/api/discovery/scans/active', { signal });

export const activeScanQueryOptions = () =>
  queryOptions({ queryKey: discoveryKeys.activeScan(), queryFn: ({ signal }) => findActiveScan({ signal }), staleTime: 0 });

export const useActiveScan = (enabled: boolean) => useQuery({ ...activeScanQueryOptions(), enabled });
