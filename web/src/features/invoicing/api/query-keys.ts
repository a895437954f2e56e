import type { InvoiceFilters } from './types';

/** Query keys of invoicing; `all` is refreshed after every invoice change. */
export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (f: InvoiceFilters) => ['invoices', 'list', f] as const,
  catalog: ['invoices', 'catalog'] as const,
};
