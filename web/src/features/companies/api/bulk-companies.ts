import { useMutation, useQueryClient } from '@tanstack/react-query';

import { contactsKeys } from '@/features/contacts/api/query-keys';
import { dealsKeys } from '@/features/deals/api/query-keys';
import { recordsKeys } from '@/features/records/api/query-keys';
import { api } from '@/lib/api-client';
import type { CompanyBulkStatusBody, DeleteOutcome, StatusOutcome } from '@/types/openapi.gen';

import { COMPANIES_URL } from './get-companies';
import { companiesKeys } from './query-keys';

/** `message`: "3 companies set to partner (1 already partner)". */
export type BulkStatusAnswer = StatusOutcome;
/** `message`: "Deleted 3 companies". */
export type BulkDeleteAnswer = DeleteOutcome;

/** Sets the status of 1–1,000 companies in one transaction (an unknown id changes nothing). */
export const bulkCompanyStatus = ({ companyIds, status }: CompanyBulkStatusBody) =>
  api.post<BulkStatusAnswer>(`${COMPANIES_URL}/bulk-status`, { status, companyIds });

/** Deletes 1–1,000 companies in one transaction; their contacts and deals stay, without a company. */
export const bulkDeleteCompanies = (companyIds: string[]) => api.post<BulkDeleteAnswer>(`${COMPANIES_URL}/bulk-delete`, { companyIds });

type Options<T> = { onSuccess?: (answer: T) => void; onError?: (e: Error) => void };

export const useBulkCompanyStatus = (options: Options<BulkStatusAnswer>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkCompanyStatus,
    onSuccess: async (answer) => {
      // The pipeline's prospects show company statuses; each change is on the company's timeline.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companiesKeys.all }),
        queryClient.invalidateQueries({ queryKey: dealsKeys.prospects() }),
        queryClient.invalidateQueries({ queryKey: recordsKeys.all }),
      ]);
      options.onSuccess?.(answer);
    },
    onError: options.onError,
  });
};

export const useBulkDeleteCompanies = (options: Options<BulkDeleteAnswer>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkDeleteCompanies,
    onSuccess: async (answer) => {
      // Contacts and deals lose their company's name.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companiesKeys.all }),
        queryClient.invalidateQueries({ queryKey: contactsKeys.all }),
        queryClient.invalidateQueries({ queryKey: dealsKeys.all }),
        queryClient.invalidateQueries({ queryKey: recordsKeys.all }),
      ]);
      options.onSuccess?.(answer);
    },
    onError: options.onError,
  });
};
