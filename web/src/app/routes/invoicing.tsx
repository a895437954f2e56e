import { Link, useLocation } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { screenHref } from '@/config/paths';
import { InvoiceEditor } from '@/features/invoicing/components/invoice-editor';

/** Invoicing (seed 002 §2): catalog upload, invoice details, line items, totals, notes, and send / charge / download. */
export function InvoicingRoute() {
  const { pathname } = useLocation();
  return (
    <div className="space-y-6">
      <title>Invoicing · Prospector</title>
      <PageHeader
        title="Invoicing"
        description="Build an invoice from the catalog, then save, send, charge or download it."
        action={
          <Link to={screenHref('invoiceHistory', pathname)} className="text-sm font-semibold text-indigo-700 hover:underline">
            Invoice history
          </Link>
        }
      />
      <InvoiceEditor />
    </div>
  );
}
