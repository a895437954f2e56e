import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';

import { COMPANIES_URL } from './get-companies';

/** The job reading the company's website (`company_enrich`), to follow with `useJobOutcome`. */
export type EnrichAnswer = EnqueueResponse;

/** Reads the company's own website: home, contact and team pages (docs/providers.md). */
export const enrichCompany = (id: string) => api.post<EnrichAnswer>(`${COMPANIES_URL}/${encodeURIComponent(id)}/enrich`);

export const useEnrichCompany = (options: { onSuccess?: (answer: EnrichAnswer) => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: enrichCompany, onSuccess: options.onSuccess, onError: options.onError });
