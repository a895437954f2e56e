import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { RegionCount } from '@/types/openapi.gen';

import { dashboardKeys } from './query-keys';

export const REGIONAL_URL = '/api/dashboard/regional';

/** Companies on file per target state, in the chart's order. */
export type { RegionCount };

export const getRegional = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<RegionCount[]>(REGIONAL_URL, { signal });

export const getRegionalQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.regional(), queryFn: ({ signal }) => getRegional({ signal }) });

export const useRegional = () => useQuery(getRegionalQueryOptions());
