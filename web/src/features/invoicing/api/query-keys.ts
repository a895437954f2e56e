import type { InvoiceFilters } from './types';

/** Query keys of invoicing; `all` is refreshed after every invoice change. */
export const invoiceKeys = {
  all: ['invoices'] as const,
  lists: () => [...invoiceKeys.all, 'list'] as const,
  list: (f: InvoiceFilters) => [...invoiceKeys.lists(), f] as const,
  catalog: () => [...invoiceKeys.all, 'catalog'] as const,
};
