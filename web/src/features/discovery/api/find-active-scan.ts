import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Job } from '@/types/api';

import { discoveryKeys } from './query-keys';

/**
 * The newest discovery scan still queued or running, so a reloaded page finds it again
 * (`GET /api/ops/jobs?kind=discovery_scan&status=…`). Null when there is none.
 */
export async function findActiveScan({ signal }: { signal?: AbortSignal } = {}): Promise<Job | null> {
  for (const status of ['running', 'retrying', 'queued']) {
    const jobs = await api.get<Job[]>('/api/ops/jobs', {
      params: { kind: 'discovery_scan', status, limit: 1 },
      signal,
    });
    if (jobs[0]) return jobs[0];
  }
  return null;
}

export const activeScanQueryOptions = () =>
  queryOptions({ queryKey: discoveryKeys.activeScan(), queryFn: ({ signal }) => findActiveScan({ signal }), staleTime: 0 });

export const useActiveScan = (enabled: boolean) => useQuery({ ...activeScanQueryOptions(), enabled });
