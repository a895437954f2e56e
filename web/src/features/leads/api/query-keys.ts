import { contactsKeys } from '@/features/contacts/api/query-keys';

import type { LeadStageName } from './get-lead-board';

/** Leads are contacts: keyed under `contactsKeys.all`, so any contact change refreshes the board. */
export const leadsKeys = {
  board: () => [...contactsKeys.all, 'lead-board'] as const,
  /** The further pages of one board column, loaded on demand. */
  column: (stage: LeadStageName) => [...leadsKeys.board(), stage] as const,
};
