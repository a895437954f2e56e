import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { StatTile } from '@/components/ui/states';
import { serverMessageOr } from '@/lib/api-client';
import { formatDay } from '@/lib/format';
import { formatUsd } from '@/lib/invoice-math';
import { toast } from '@/stores/toasts';

import { downloadInvoicePdf } from '../api/download-invoice-pdf';
import { useInvoiceSummary } from '../api/get-invoice-summary';
import { INVOICE_STATUSES, type Invoice, type InvoiceFilters, type InvoiceStatus } from '../api/types';
import { useUpdateInvoiceStatus } from '../api/update-invoice-status';

export const STATUS_LABEL: Record<InvoiceStatus, string> = { draft: 'Draft', sent: 'Sent', paid: 'Paid', overdue: 'Overdue' };
const COLUMN_CLASS: Record<InvoiceStatus, string> = {
  draft: 'border-slate-300',
  sent: 'border-sky-400',
  paid: 'border-emerald-500',
  overdue: 'border-rose-500',
};

/** Five tiles: how many invoices the filters match, their total, and what is paid, outstanding and overdue. */
export function InvoiceStats({ filters }: { filters: InvoiceFilters }) {
  const summary = useInvoiceSummary(filters);
  const s = summary.data;
  const money = (amount: number | undefined) => (s ? formatUsd(amount ?? 0) : '…');
  const count = (n: number | undefined) => (s ? `${(n ?? 0).toLocaleString()} invoices` : undefined);
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-5" aria-busy={summary.isPending}>
      <StatTile label="Total Invoices" value={s ? s.count : '…'} />
      <StatTile label="Total Amount" value={money(s?.totalAmount)} />
      <StatTile label="Paid" value={money(s?.paid.amount)} note={count(s?.paid.count)} />
      <StatTile label="Outstanding" value={money(s?.outstanding.amount)} note={count(s?.outstanding.count)} />
      <StatTile label="Overdue" value={s ? s.overdue.count : '…'} note={s ? formatUsd(s.overdue.amount) : undefined} />
    </div>
  );
}

/** An invoice's status: a choice of the four, or "Paid" for good once paid. */
export function InvoiceStatusControl({ invoice, disabled, onChange }: { invoice: Invoice; disabled: boolean; onChange: (s: InvoiceStatus) => void }) {
  if (invoice.status === 'paid') {
    return <span className="rounded-full bg-emerald-100 px-2 text-xs font-semibold text-emerald-800">Paid</span>;
  }
  return (
    <Select
      aria-label={`Status of ${invoice.invoiceNumber}`}
      size="sm"
      className="w-28"
      value={invoice.status}
      disabled={disabled}
      onValueChange={(s) => onChange(s as InvoiceStatus)}
      options={INVOICE_STATUSES.map((s) => [s, STATUS_LABEL[s]] as const)}
    />
  );
}

/** The invoices in four status columns: change a status (a paid one stays paid), download a PDF. */
export function InvoiceBoard({ items }: { items: Invoice[] }) {
  const update = useUpdateInvoiceStatus({
    onError: (e) =>
      toast({ title: 'Failed to update invoice status', description: serverMessageOr(e, 'Please try again.'), variant: 'destructive' }),
  });
  const by = (s: InvoiceStatus) => items.filter((i) => i.status === s);

  const download = async (invoice: Invoice) => {
    try {
      await downloadInvoicePdf(invoice);
    } catch (e) {
      toast({ title: 'Failed to download PDF', description: serverMessageOr(e as Error, 'Please try again.'), variant: 'destructive' });
    }
  };

  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
      {INVOICE_STATUSES.map((status) => (
        <section key={status} aria-label={STATUS_LABEL[status]} className={`rounded-xl border-t-4 bg-slate-50 p-3 ${COLUMN_CLASS[status]}`}>
          <h2 className="mb-2 flex justify-between font-semibold">
            <span>{STATUS_LABEL[status]}</span>
            <span className="text-sm text-slate-500">{by(status).length}</span>
          </h2>
          <ul className="space-y-2">
            {by(status).map((inv) => (
              <li key={inv.id} aria-label={inv.invoiceNumber} className="rounded-lg bg-white p-3 text-sm shadow-xs ring-1 ring-slate-200">
                <div className="flex items-start justify-between gap-2">
                  <span className="font-semibold break-all">{inv.invoiceNumber}</span>
                  <span className="font-bold tabular-nums">{formatUsd(inv.totalAmount)}</span>
                </div>
                <p className="text-slate-700">{inv.customerName}</p>
                <p className="text-xs text-slate-500">
                  {formatDay(inv.date)} · due {formatDay(inv.dueDate)}
                </p>
                <div className="mt-2 flex flex-wrap items-center gap-2">
                  <InvoiceStatusControl invoice={inv} disabled={update.isPending} onChange={(status) => update.mutate({ id: inv.id, status })} />
                  <Button size="sm" variant="secondary" onClick={() => void download(inv)} aria-label={`Download PDF of ${inv.invoiceNumber}`}>
                    PDF
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
