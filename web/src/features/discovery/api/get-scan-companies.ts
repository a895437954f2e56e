import { queryOptions, useQuery } from '@tanstack/react-query';

import { COMPANIES_URL } from '@/features/companies/api/get-companies';
import { companiesKeys } from '@/features/companies/api/query-keys';
import { api } from '@/lib/api-client';
import type { Company } from '@/types/api';

/**
 * The companies a scan found, read as they are now (revenue, industry, compatibility and the
 * partnership estimate are not in the scan's result, and may have been edited since). Under
 * `companiesKeys.all`, so an edit anywhere refreshes them.
 */
export const useScanCompanies = (ids: string[]) =>
  useQuery(
    queryOptions({
      queryKey: companiesKeys.scan(ids),
      queryFn: ({ signal }) =>
        api.get<Company[]>(COMPANIES_URL, { params: { ids: ids.join(','), limit: ids.length }, signal }),
      enabled: ids.length > 0,
      select: (rows) => new Map(rows.map((c) => [c.id, c])),
    }),
  );
