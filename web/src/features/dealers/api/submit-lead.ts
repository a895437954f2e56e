import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { LeadForm, Thanks } from '@/types/openapi.gen';

export const LEADS_URL = '/api/leads';

/** The dealer form; `fax` is a honeypot: hidden from people, so only bots fill it (the server drops such leads). */
export type LeadInput = LeadForm;

/** The public dealer form; no session needed. */
export const submitLead = (input: LeadInput) => api.post<Thanks>(LEADS_URL, input);

export const useSubmitLead = (options: { onSuccess?: () => void }) =>
  useMutation({ mutationFn: submitLead, ...options });
