import type { InvoicePaging } from './get-invoices';
import type { InvoiceFilters } from './types';

/** Query keys of invoicing; `all` is refreshed after every invoice change. */
export const invoiceKeys = {
  all: ['invoices'] as const,
  lists: () => [...invoiceKeys.all, 'list'] as const,
  list: (f: InvoiceFilters & InvoicePaging) => [...invoiceKeys.lists(), f] as const,
  summary: (f: InvoiceFilters) => [...invoiceKeys.all, 'summary', f] as const,
  catalog: () => [...invoiceKeys.all, 'catalog'] as const,
  /** Per year of the invoice date: each year has its own series. */
  nextNumber: (year: string) => [...invoiceKeys.all, 'next-number', year] as const,
};
