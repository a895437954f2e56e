import type { ContactFilters } from './get-contacts';

/**
 * Query keys of everything built from contacts (the list, the lead board, customers): a change to
 * a contact invalidates `all`, which refreshes all of them.
 */
export const contactsKeys = {
  all: ['contacts'] as const,
  lists: () => [...contactsKeys.all, 'list'] as const,
  list: (filters: ContactFilters) => [...contactsKeys.lists(), filters] as const,
  emailHistory: (id: string) => [...contactsKeys.all, 'email-history', id] as const,
  detail: (id: string) => [...contactsKeys.all, 'detail', id] as const,
  /** A record picker's search (the deal form's contact and company). */
  combobox: (text: string) => [...contactsKeys.all, 'combobox', text] as const,
};
