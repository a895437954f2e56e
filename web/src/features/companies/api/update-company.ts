import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dealsKeys } from '@/features/deals/api/query-keys';
import { api } from '@/lib/api-client';
import type { Company } from '@/types/api';
import type { CompanyBody } from '@/types/openapi.gen';

import { COMPANIES_URL } from './get-companies';
import { companiesKeys } from './query-keys';

/** The edit dialog's fields (seed 000 §2.7) or a prospect status; absent fields stay as they are. */
export type CompanyUpdate = CompanyBody;

export const updateCompany = ({ id, update }: { id: string; update: CompanyUpdate }) =>
  api.put<Company>(`${COMPANIES_URL}/${encodeURIComponent(id)}`, update);

export const useUpdateCompany = (options: { onSuccess?: (c: Company) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompany,
    onSuccess: async (company) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companiesKeys.all }),
        queryClient.invalidateQueries({ queryKey: dealsKeys.prospects() }),
      ]);
      options.onSuccess?.(company);
    },
    onError: options.onError,
  });
};
