import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Company } from '@/types/api';
import type { Report } from '@/types/openapi.gen';

import { dashboardKeys } from './query-keys';

/** The map's Customer Report for a state (`GET /api/companies/report`, seed 000 §2.6); `qualified`: qualified plus interested companies. */
export type CustomerReport = Omit<Report, 'companies'> & {
  companies: Company[];
};

export const getCustomerReport = (state: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<CustomerReport>('/api/companies/report', { params: { state, limit: 24 }, signal });

/** Fresh for 5 minutes, as the seed's map panel caches (000 §9). */
export const useCustomerReport = (state: string) =>
  useQuery(
    queryOptions({
      queryKey: dashboardKeys.customerReport(state),
      queryFn: ({ signal }) => getCustomerReport(state, { signal }),
      staleTime: 5 * 60_000,
    }),
  );
