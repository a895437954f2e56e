import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { sequencesKeys } from './query-keys';
import { sequenceUrl, type Sequence } from './types';

/** One sequence with its settings and why it waits; refreshed every 30 s, as limits and windows pass. */
export const getSequence = (id: string, { signal }: { signal?: AbortSignal } = {}) => api.get<Sequence>(sequenceUrl(id), { signal });

export const useSequence = (id: string) =>
  useQuery({
    ...queryOptions({ queryKey: sequencesKeys.detail(id), queryFn: ({ signal }) => getSequence(id, { signal }) }),
    refetchInterval: 30_000,
  });
