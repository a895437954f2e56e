import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { SuppressionLifted } from '@/types/openapi.gen';

import { emailConfigKeys } from './query-keys';

export type { SuppressionLifted };

/** `DELETE /api/email/suppressions/{email}` (admin): the address can be emailed again; audited. */
export const liftSuppression = (email: string) =>
  api.delete<SuppressionLifted>(`/api/email/suppressions/${encodeURIComponent(email)}`);

export const useLiftSuppression = (options: { onSuccess?: (r: SuppressionLifted) => void; onError?: (e: Error) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: liftSuppression,
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: emailConfigKeys.suppressions() });
      options.onSuccess?.(r);
    },
    onError: options.onError,
  });
};
