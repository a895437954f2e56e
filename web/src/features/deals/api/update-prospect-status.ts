import { useMutation, useQueryClient } from '@tanstack/react-query';

import { companiesKeys } from '@/features/companies/api/query-keys';
import { updateCompany } from '@/features/companies/api/update-company';
import { contactsKeys } from '@/features/contacts/api/query-keys';
import { updateContact } from '@/features/contacts/api/save-contact';
import type { Company, CompanyStatus, Contact, ContactStatus } from '@/types/api';

import { dealsKeys } from './query-keys';

/** Statuses a prospect can be given from the pipeline page (seed 001 §4), with their labels. */
export const COMPANY_PROSPECT_STATUSES = [
  ['contacted', 'Contacted'],
  ['qualified', 'Qualified'],
  ['not_interested', 'Not Interested'],
] as const satisfies readonly (readonly [CompanyStatus, string])[];
export const CONTACT_PROSPECT_STATUSES = [
  ['contacted', 'Contacted'],
  ['meeting_scheduled', 'Schedule Meeting'],
  ['qualified', 'Qualified'],
  ['lost', 'Not Interested'],
] as const satisfies readonly (readonly [ContactStatus, string])[];

export type ProspectStatusInput =
  | { type: 'company'; id: string; status: CompanyStatus }
  | { type: 'contact'; id: string; status: ContactStatus };

export const updateProspectStatus = (input: ProspectStatusInput): Promise<Company | Contact> =>
  input.type === 'company'
    ? updateCompany({ id: input.id, update: { status: input.status } })
    : updateContact(input.id, { status: input.status });

export const useUpdateProspectStatus = (options: { onSuccess?: () => void; onError?: () => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProspectStatus,
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
