import type { CompanyFilters } from './get-companies';

/** Query keys of companies; `all` is refreshed after every company change. */
export const companiesKeys = {
  all: ['companies'] as const,
  lists: () => [...companiesKeys.all, 'list'] as const,
  list: (filters: CompanyFilters) => [...companiesKeys.lists(), filters] as const,
  details: () => [...companiesKeys.all, 'detail'] as const,
  detail: (id: string) => [...companiesKeys.details(), id] as const,
  /** A scan's companies, read by id. */
  scan: (ids: string[]) => [...companiesKeys.all, 'scan', ids] as const,
  /** A record picker's search (the deal form's contact and company). */
  combobox: (text: string) => [...companiesKeys.all, 'combobox', text] as const,
};
