import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';

import { CONTACTS_URL } from './get-contacts';

/** What a succeeded contact_verify job reports. */
export type VerificationResult = {
  contactId: string;
  verification: { isVerified: boolean; verifiedBy: string[]; confidenceScore: number; warnings: string[] };
};

/** Starts a contact_verify job (202 with its id). */
export const verifyContact = (id: string) =>
  api.post<EnqueueResponse>(`${CONTACTS_URL}/${encodeURIComponent(id)}/verify`);

export const useVerifyContact = (options: { onSuccess?: (r: EnqueueResponse) => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: verifyContact, ...options });
