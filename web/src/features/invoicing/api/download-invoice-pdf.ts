import { downloadFile } from '@/lib/download';

import { INVOICES_URL } from './get-invoices';
import type { Invoice } from './types';

/** Saves the invoice's PDF under the server's name (`invoice-{number}.pdf`). */
export const downloadInvoicePdf = (invoice: Pick<Invoice, 'id' | 'invoiceNumber'>) =>
  downloadFile(`${INVOICES_URL}/${encodeURIComponent(invoice.id)}/pdf`, `invoice-${invoice.invoiceNumber}.pdf`, undefined, 'application/pdf');
