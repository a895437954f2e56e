/** Invoices as the api answers them: amounts in dollars (computed server-side from cents). */
export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export type InvoiceLineItem = {
  id: string;
  productId: string | null;
  description: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
};

export type Invoice = {
  id: string;
  invoiceNumber: string;
  customerName: string;
  customerEmail: string | null;
  customerPhone: string | null;
  billingAddress: string | null;
  notes: string | null;
  taxRate: number;
  discountAmount: number;
  status: InvoiceStatus;
  date: string;
  dueDate: string;
  totalAmount: number;
  totals: { subtotal: number; discountAmount: number; taxAmount: number; totalAmount: number };
  lineItems: InvoiceLineItem[];
  paidAt: string | null;
  createdAt: string;
  updatedAt: string;
  pdfJobId?: string;
};

export type CatalogProduct = {
  id: string;
  name: string;
  description: string | null;
  price: number;
  category: string | null;
  sku: string | null;
};

export type InvoiceFilters = { search: string; status: string; dateFrom: string; dateTo: string };
