import { useQueryClient } from '@tanstack/react-query';
import Papa from 'papaparse';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ColumnMenu, SortHeader, sortRows, useColumns, useSort } from '@/components/ui/table-tools';
import { serverMessageOr } from '@/lib/api-client';
import { saveTextFile } from '@/lib/download';
import { formatDay } from '@/lib/format';
import { formatUsd } from '@/lib/invoice-math';
import { toast } from '@/stores/toasts';

import { downloadInvoicePdf } from '../api/download-invoice-pdf';
import { invoiceKeys } from '../api/query-keys';
import { INVOICE_STATUSES, type Invoice, type InvoiceStatus } from '../api/types';
import { updateInvoiceStatus, useUpdateInvoiceStatus } from '../api/update-invoice-status';
import { InvoiceStatusControl, STATUS_LABEL } from './invoice-board';

export const INVOICE_COLUMNS = [
  { key: 'customer', label: 'Customer' },
  { key: 'email', label: 'Email' },
  { key: 'date', label: 'Date' },
  { key: 'due', label: 'Due' },
  { key: 'status', label: 'Status' },
  { key: 'total', label: 'Total' },
] as const;
const COLUMNS = INVOICE_COLUMNS;
export type InvoiceColumn = (typeof COLUMNS)[number]['key'];
export type InvoiceSortKey = InvoiceColumn | 'number';
type Column = InvoiceColumn;
type SortKey = InvoiceSortKey;

/** The table's order and columns, held by the screen so a saved view can set them. */
export function useInvoiceTableSettings() {
  return {
    sorting: useSort<SortKey>({ key: 'date', dir: 'desc' }),
    columns: useColumns<Column>('invoices', COLUMNS.map((c) => c.key)),
  };
}

const th = 'px-3 py-2';
const td = 'px-3 py-2';

/**
 * The invoices as a dense table (issue 23): sortable columns, a column chooser, and ticked rows
 * set to a status at once (paid ones stay paid) or exported as CSV.
 */
export function InvoiceTable({ items, settings }: { items: Invoice[]; settings: ReturnType<typeof useInvoiceTableSettings> }) {
  const { sort, toggle: onSort } = settings.sorting;
  const { columns } = settings;
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [bulkStatus, setBulkStatus] = useState<InvoiceStatus | ''>('');
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const update = useUpdateInvoiceStatus({
    onError: (e) =>
      toast({ title: 'Failed to update invoice status', description: serverMessageOr(e, 'Please try again.'), variant: 'destructive' }),
  });
  const shown = columns.shown;
  const rows = sortRows(items, sort, (i, key) => {
    switch (key) {
      case 'number':
        return i.invoiceNumber;
      case 'customer':
        return i.customerName;
      case 'email':
        return i.customerEmail;
      case 'date':
        return i.date;
      case 'due':
        return i.dueDate;
      case 'status':
        return INVOICE_STATUSES.indexOf(i.status);
      case 'total':
        return i.totalAmount;
    }
  });
  const chosen = items.filter((i) => picked.has(i.id));
  const all = items.length > 0 && chosen.length === items.length;
  const flip = (id: string) =>
    setPicked((was) => {
      const next = new Set(was);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const applyStatus = async () => {
    if (!bulkStatus) return;
    const open = chosen.filter((i) => i.status !== 'paid' && i.status !== bulkStatus);
    setBusy(true);
    const results = await Promise.allSettled(open.map((i) => updateInvoiceStatus({ id: i.id, status: bulkStatus })));
    setBusy(false);
    const failed = results.filter((r) => r.status === 'rejected').length;
    const kept = chosen.length - open.length;
    await queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    toast(
      failed > 0
        ? { title: 'Some invoices were not changed', description: `${failed} of ${open.length} failed. Please try again.`, variant: 'destructive' }
        : {
            title: 'Invoices Updated',
            description: `${open.length} set to ${STATUS_LABEL[bulkStatus]}${kept > 0 ? `; ${kept} left as ${kept === 1 ? 'it was' : 'they were'} (paid, or already ${STATUS_LABEL[bulkStatus]})` : ''}.`,
            variant: 'success',
          },
    );
    setPicked(new Set());
    setBulkStatus('');
  };

  const exportCsv = () => {
    const csv = Papa.unparse(
      chosen.map((i) => ({
        'Invoice number': i.invoiceNumber,
        Customer: i.customerName,
        Email: i.customerEmail ?? '',
        Date: i.date,
        'Due date': i.dueDate,
        Status: STATUS_LABEL[i.status],
        Total: i.totalAmount.toFixed(2),
      })),
    );
    saveTextFile(`invoices-${new Date().toISOString().slice(0, 10)}.csv`, csv);
  };

  const download = async (invoice: Invoice) => {
    try {
      await downloadInvoicePdf(invoice);
    } catch (e) {
      toast({ title: 'Failed to download PDF', description: serverMessageOr(e as Error, 'Please try again.'), variant: 'destructive' });
    }
  };

  return (
    <section aria-label="Invoices table" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        {chosen.length > 0 ? (
          <div role="group" aria-label="Bulk actions" className="flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm">
            <span className="font-medium text-indigo-900">
              {chosen.length} {chosen.length === 1 ? 'invoice' : 'invoices'} selected
            </span>
            <label className="flex items-center gap-1">
              <span>Set status</span>
              <select
                className="rounded-md border-0 py-1 text-sm ring-1 ring-slate-300"
                value={bulkStatus}
                onChange={(e) => setBulkStatus(e.target.value as InvoiceStatus | '')}
              >
                <option value="">Choose…</option>
                {INVOICE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABEL[s]}
                  </option>
                ))}
              </select>
            </label>
            <Button size="sm" disabled={!bulkStatus || busy} onClick={() => void applyStatus()}>
              {busy ? 'Applying…' : 'Apply'}
            </Button>
            <Button size="sm" variant="secondary" onClick={exportCsv}>
              Export CSV
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setPicked(new Set())}>
              Clear
            </Button>
          </div>
        ) : (
          <p className="text-sm text-slate-500">Tick invoices to change their status or export them.</p>
        )}
        <ColumnMenu columns={COLUMNS} shown={shown} onToggle={columns.toggle} />
      </div>
      <div className="overflow-x-auto rounded-lg ring-1 ring-slate-200">
        <table className="min-w-full divide-y divide-slate-200 bg-white text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500 uppercase">
            <tr>
              <th scope="col" className={`w-8 ${th}`}>
                <input
                  type="checkbox"
                  className="size-4"
                  aria-label="Select all invoices"
                  checked={all}
                  onChange={() => setPicked(all ? new Set() : new Set(items.map((i) => i.id)))}
                />
              </th>
              <SortHeader column="number" sort={sort} onSort={onSort}>
                Number
              </SortHeader>
              {COLUMNS.filter((c) => shown(c.key)).map((c) => (
                <SortHeader key={c.key} column={c.key} sort={sort} onSort={onSort} firstDir={c.key === 'total' || c.key === 'date' || c.key === 'due' ? 'desc' : 'asc'}>
                  {c.label}
                </SortHeader>
              ))}
              <th scope="col" className={th}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((inv) => (
              <tr key={inv.id} aria-selected={picked.has(inv.id)} className={picked.has(inv.id) ? 'bg-indigo-50/50' : undefined}>
                <td className={td}>
                  <input type="checkbox" className="size-4" aria-label={`Select ${inv.invoiceNumber}`} checked={picked.has(inv.id)} onChange={() => flip(inv.id)} />
                </td>
                <th scope="row" className={`${td} text-left font-medium whitespace-nowrap text-slate-900`}>
                  {inv.invoiceNumber}
                </th>
                {shown('customer') ? <td className={td}>{inv.customerName}</td> : null}
                {shown('email') ? <td className={`${td} text-slate-600`}>{inv.customerEmail ?? '—'}</td> : null}
                {shown('date') ? <td className={`${td} whitespace-nowrap`}>{formatDay(inv.date)}</td> : null}
                {shown('due') ? <td className={`${td} whitespace-nowrap`}>{formatDay(inv.dueDate)}</td> : null}
                {shown('status') ? (
                  <td className={td}>
                    <InvoiceStatusControl invoice={inv} disabled={update.isPending || busy} onChange={(status) => update.mutate({ id: inv.id, status })} />
                  </td>
                ) : null}
                {shown('total') ? <td className={`${td} text-right font-semibold tabular-nums`}>{formatUsd(inv.totalAmount)}</td> : null}
                <td className={`${td} text-right`}>
                  <Button size="sm" variant="secondary" onClick={() => void download(inv)} aria-label={`Download PDF of ${inv.invoiceNumber}`}>
                    PDF
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
