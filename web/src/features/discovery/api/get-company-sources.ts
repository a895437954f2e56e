import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { discoveryKeys } from './query-keys';

export const COMPANY_SOURCES_URL = '/api/discovery/company-sources';

/** One source that found a company (`GET /api/discovery/company-sources`). */
export type CompanySource = {
  companyId: string;
  /** `osm`, `google_places`, `catalog` (demo data) or `llm`. */
  source: string;
  externalId: string | null;
  /** False for demo data and AI suggestions. */
  verified: boolean;
  /** The notice the source's data must carry (ODbL for OpenStreetMap). */
  attribution: string | null;
  openingHours: string | null;
  firstSeenAt: number;
  lastSeenAt: number;
};

/** Where one company was found, and when each source first and last saw it. */
export const useCompanySources = (companyId: string) =>
  useQuery(
    queryOptions({
      queryKey: discoveryKeys.companySources(companyId),
      queryFn: ({ signal }) => api.get<CompanySource[]>(COMPANY_SOURCES_URL, { params: { ids: companyId }, signal }),
      enabled: companyId !== '',
    }),
  );
