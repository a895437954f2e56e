import { useMutation, useQueryClient } from '@tanstack/react-query';

import { contactsKeys } from '@/features/contacts/api/query-keys';
import { companiesKeys } from '@/features/companies/api/query-keys';
import { api } from '@/lib/api-client';
import type { Deal } from '@/types/api';
import type { ConvertBody } from '@/types/openapi.gen';

import { DEALS_URL } from './get-deals';
import { dealsKeys } from './query-keys';

export type ConvertInput = ConvertBody;

/** Makes a deal from a prospect (409 when it already is one). */
export const convertProspect = (input: ConvertInput) => api.post<Deal>(`${DEALS_URL}/convert-prospect`, input);

export const useConvertProspect = (options: { onSuccess?: (d: Deal) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: convertProspect,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dealsKeys.all }),
        queryClient.invalidateQueries({ queryKey: contactsKeys.all }),
        queryClient.invalidateQueries({ queryKey: companiesKeys.all }),
      ]);
    },
    ...options,
  });
};
