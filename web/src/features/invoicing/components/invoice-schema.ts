import { z } from 'zod';

import { DEFAULT_TAX_RATE, DUE_DAYS, isoDate, toCents, toTaxMilli } from '@/lib/invoice-math';

/** The api's refusal, checked before saving so a send without an address writes nothing. */
export const NO_CUSTOMER_EMAIL = 'This invoice has no customer email';

const lineSchema = z.object({
  productId: z.string().nullable(),
  description: z.string().trim().min(1, 'Description is required'),
  quantity: z.string().refine((q) => /^\d+$/.test(q.trim()) && Number(q) >= 1, 'Quantity must be at least 1'),
  unitPrice: z.string().refine((p) => toCents(p) !== null, 'Enter a price like 19.99'),
});

/** The invoice form's checks, with the seed's messages. */
export const invoiceSchema = z.object({
  // Blank: the server gives the next of the year's series (INV-2026-0001).
  invoiceNumber: z.string().trim().max(64, 'Invoice number is too long (at most 64)'),
  date: z.string().min(1, 'Date is required'),
  dueDate: z.string().min(1, 'Due date is required'),
  customerName: z.string().trim().min(1, 'Customer name is required'),
  customerEmail: z.union([z.literal(''), z.email('Valid email required')]),
  customerPhone: z.string(),
  billingAddress: z.string(),
  notes: z.string(),
  taxRate: z.string().refine((t) => toTaxMilli(t) !== null, 'Tax rate must be between 0 and 100'),
  discountAmount: z.string().refine((d) => d.trim() === '' || toCents(d) !== null, 'Discount must be at least 0'),
  lineItems: z.array(lineSchema).min(1, 'Add at least one line item'),
});

/** The form's values: every field as typed (the api takes numbers as text). */
export type InvoiceFormValues = z.infer<typeof invoiceSchema>;

export const emptyLine = (): InvoiceFormValues['lineItems'][number] => ({ productId: null, description: '', quantity: '1', unitPrice: '' });

/** A new invoice: a number given when saved, today's date, due in DUE_DAYS, the default tax rate and one empty line. */
export const blankInvoice = (): InvoiceFormValues => {
  const today = new Date();
  return {
    invoiceNumber: '',
    date: isoDate(today),
    dueDate: isoDate(today, DUE_DAYS),
    customerName: '',
    customerEmail: '',
    customerPhone: '',
    billingAddress: '',
    notes: '',
    taxRate: DEFAULT_TAX_RATE,
    discountAmount: '',
    lineItems: [emptyLine()],
  };
};
