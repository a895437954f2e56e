import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { sequencesKeys } from './query-keys';
import { sequenceUrl, type SequenceStep } from './types';

/** Steps in running order, with their counts; only asked for when a sequence is selected. */
export const getSteps = (id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<SequenceStep[]>(`${sequenceUrl(id)}/steps`, { signal });

export const useSteps = (id: string | null) =>
  useQuery({
    ...queryOptions({ queryKey: sequencesKeys.steps(id ?? ''), queryFn: ({ signal }) => getSteps(id ?? '', { signal }) }),
    enabled: Boolean(id),
  });
