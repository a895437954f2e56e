import { contactsKeys } from '@/features/contacts/api/query-keys';

/** Leads are contacts: keyed under `contactsKeys.all`, so any contact change refreshes the board. */
export const leadsKeys = {
  board: () => [...contactsKeys.all, 'lead-board'] as const,
};
