import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { sequencesKeys } from './query-keys';
import { SEQUENCES_URL, type Sequence } from './types';

export const getSequences = ({ signal }: { signal?: AbortSignal } = {}) => api.get<Sequence[]>(SEQUENCES_URL, { signal });

export const useSequences = () =>
  useQuery(queryOptions({ queryKey: sequencesKeys.list(), queryFn: ({ signal }) => getSequences({ signal }) }));
