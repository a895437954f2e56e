import { contactsKeys } from '@/features/contacts/api/query-keys';

import type { CustomerFilters } from './get-customers';

/** Customers are contacts: keyed under `contactsKeys.all` so a conversion refreshes them. */
export const customersKeys = {
  all: [...contactsKeys.all, 'customers'] as const,
  list: (filters: CustomerFilters) => [...customersKeys.all, 'list', filters] as const,
  stats: () => [...customersKeys.all, 'stats'] as const,
};
