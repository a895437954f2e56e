import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CompaniesEnriching } from '@/types/openapi.gen';

import { COMPANIES_URL } from './get-companies';

/** One job per company with a website; `skipped` had none. */
export type BulkEnrichAnswer = CompaniesEnriching;

/** Reads the websites of 1–200 picked companies, one job each. */
export const enrichCompanies = (companyIds: string[]) => api.post<BulkEnrichAnswer>(`${COMPANIES_URL}/bulk-enrich`, { companyIds });

export const useEnrichCompanies = (options: { onSuccess?: (answer: BulkEnrichAnswer) => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: enrichCompanies, onSuccess: options.onSuccess, onError: options.onError });
