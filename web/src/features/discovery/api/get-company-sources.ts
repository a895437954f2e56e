import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CompanySourceRow } from '@/types/openapi.gen';

import { discoveryKeys } from './query-keys';

export const COMPANY_SOURCES_URL = '/api/discovery/company-sources';

/** One source that found a company (`GET /api/discovery/company-sources`). */
/**
 * `source`: `osm`, `google_places`, `catalog` (demo data) or `llm`; `verified` is false for demo
 * data and AI suggestions; `attribution`: the notice the source's data must carry (ODbL for OSM).
 */
export type CompanySource = CompanySourceRow;

/** Where one company was found, and when each source first and last saw it. */
export const useCompanySources = (companyId: string) =>
  useQuery(
    queryOptions({
      queryKey: discoveryKeys.companySources(companyId),
      queryFn: ({ signal }) => api.get<CompanySource[]>(COMPANY_SOURCES_URL, { params: { ids: companyId }, signal }),
      enabled: companyId !== '',
    }),
  );
