import { contactsKeys } from '@/features/contacts/api/query-keys';

/** Customers are contacts: keyed under `contactsKeys.all` so a conversion refreshes them. */
export const customersKeys = {
  all: [...contactsKeys.all, 'customers'] as const,
  list: (q: string, offset: number) => [...customersKeys.all, 'list', q, offset] as const,
  stats: () => [...customersKeys.all, 'stats'] as const,
};
