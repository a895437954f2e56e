import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export const LEADS_URL = '/api/leads';

export type LeadInput = {
  companyName: string;
  contactName: string;
  email: string;
  phone: string | null;
  city: string | null;
  state: string | null;
  companyType: string | null;
  annualRevenue: string | null;
  message: string | null;
  /** Honeypot: hidden from people, so only bots fill it; the server drops such leads. */
  fax: string;
};

/** The public dealer form; no session needed. */
export const submitLead = (input: LeadInput) => api.post<{ message: string }>(LEADS_URL, input);

export const useSubmitLead = (options: { onSuccess?: () => void }) =>
  useMutation({ mutationFn: submitLead, ...options });
