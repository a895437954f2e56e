import { Link, useLocation } from 'react-router';

import { screenHref } from '@/config/paths';
import { InvoiceEditor } from '@/features/invoicing/components/invoice-editor';

/** Invoicing (seed 002 §2): catalog upload, invoice details, line items, totals, notes, and send / charge / download. */
export function InvoicingRoute() {
  const { pathname } = useLocation();
  return (
    <div className="space-y-6">
      <title>Invoicing · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Invoicing</h1>
        <Link to={screenHref('invoiceHistory', pathname)} className="text-sm font-semibold text-indigo-700 hover:underline">
          Invoice history
        </Link>
      </div>
      <InvoiceEditor />
    </div>
  );
}
