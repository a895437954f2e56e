import { useMutation, useQueryClient } from '@tanstack/react-query';

import { companiesKeys } from '@/features/companies/api/query-keys';
import { updateCompany } from '@/features/companies/api/update-company';
import { contactsKeys } from '@/features/contacts/api/query-keys';
import { updateContact } from '@/features/contacts/api/save-contact';
import type { Company, Contact } from '@/types/api';

import { dealsKeys } from './query-keys';

/** Statuses a prospect can be given from the pipeline page (seed 001 §4), with their labels. */
export const COMPANY_PROSPECT_STATUSES = [
  ['contacted', 'Contacted'],
  ['qualified', 'Qualified'],
  ['not_interested', 'Not Interested'],
] as const;
export const CONTACT_PROSPECT_STATUSES = [
  ['contacted', 'Contacted'],
  ['meeting_scheduled', 'Schedule Meeting'],
  ['qualified', 'Qualified'],
  ['lost', 'Not Interested'],
] as const;

export type ProspectStatusInput = { type: 'company' | 'contact'; id: string; status: string };

export const updateProspectStatus = ({ type, id, status }: ProspectStatusInput): Promise<Company | Contact> =>
  type === 'company' ? updateCompany({ id, update: { status } }) : updateContact(id, { status });

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
