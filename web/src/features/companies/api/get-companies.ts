import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import type { SortDir } from '@/components/ui/table-tools';
import { api, toPage } from '@/lib/api-client';
import type { ApiQuery, Company } from '@/types/api';

import { companiesKeys } from './query-keys';

export const COMPANIES_URL = '/api/companies';

/**
 * The orders `GET /api/companies` takes (`sort`), each with the direction it starts in
 * (docs/records.md); without one the server lists the best score first.
 */
export const COMPANY_SORTS = {
  created: 'desc',
  name: 'asc',
  state: 'asc',
  score: 'desc',
  revenue: 'desc',
  employees: 'desc',
  status: 'asc',
} as const satisfies Record<string, SortDir>;
export type CompanySortKey = keyof typeof COMPANY_SORTS;

export type CompanyFilters = {
  q?: string;
  state?: string;
  status?: string;
  /** high 80+, medium 60–79, low below 60 (server-side bands). */
  scoreBand?: '' | 'high' | 'medium' | 'low';
  sort?: CompanySortKey;
  dir?: SortDir;
  limit: number;
  offset: number;
};

export const getCompanies = (filters: CompanyFilters, { signal }: { signal?: AbortSignal } = {}) =>
  api.request<Company[]>('GET', COMPANIES_URL, { params: filters satisfies ApiQuery<'/api/companies', 'get'>, signal }).then(toPage);

export const getCompaniesQueryOptions = (filters: CompanyFilters) =>
  queryOptions({
    queryKey: companiesKeys.list(filters),
    queryFn: ({ signal }) => getCompanies(filters, { signal }),
    placeholderData: keepPreviousData,
    // Seed 001 §7: the company list retries 3 times before showing its error state.
    retry: 3,
    retryDelay: 500,
  });

export const useCompanies = (filters: CompanyFilters) => useQuery(getCompaniesQueryOptions(filters));

/** A score band's total: one row fetched, the count read from X-Total-Count. */
export const useCompanyBandTotal = (scoreBand: CompanyFilters['scoreBand']) =>
  useQuery(getCompaniesQueryOptions({ scoreBand, limit: 1, offset: 0 })).data?.total;
