import type { InvoiceView, LineItemView, ProductView } from '@/types/openapi.gen';

/** Invoices as the api answers them: amounts in dollars (computed server-side from cents). */
export type InvoiceStatus = InvoiceView['status'];
export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue'] as const satisfies readonly InvoiceStatus[];

export type InvoiceLineItem = LineItemView;

export type Invoice = InvoiceView;

/** A product of the catalog, its price in dollars. */
export type CatalogProduct = ProductView;

export type InvoiceFilters = { search: string; status: string; dateFrom: string; dateTo: string };
