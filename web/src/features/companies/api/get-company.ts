import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Company } from '@/types/api';

import { COMPANIES_URL } from './get-companies';
import { companiesKeys } from './query-keys';

/** One company with its contacts. */
export const getCompany = (id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<Company>(`${COMPANIES_URL}/${encodeURIComponent(id)}`, { signal });

export const getCompanyQueryOptions = (id: string) =>
  queryOptions({ queryKey: companiesKeys.detail(id), queryFn: ({ signal }) => getCompany(id, { signal }) });

export const useCompany = (id: string) => useQuery(getCompanyQueryOptions(id));
