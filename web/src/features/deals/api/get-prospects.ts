import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ProspectsView } from '@/types/openapi.gen';

import { dealsKeys } from './query-keys';

/** The first 8 company prospects and 6 contact prospects, chosen by the server. */
export type Prospects = ProspectsView;

export const getProspects = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<Prospects>('/api/pipeline/prospects', { signal });

export const getProspectsQueryOptions = () =>
  queryOptions({ queryKey: dealsKeys.prospects(), queryFn: ({ signal }) => getProspects({ signal }) });

export const useProspects = () => useQuery(getProspectsQueryOptions());
