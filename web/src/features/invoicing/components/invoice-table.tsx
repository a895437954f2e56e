import { useQueryClient } from '@tanstack/react-query';
import Papa from 'papaparse';
import { useState, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { DataTable, type TableState } from '@/components/ui/data-table';
import { Select } from '@/components/ui/select';
import { api, serverMessageOr } from '@/lib/api-client';
import { saveTextFile } from '@/lib/download';
import { formatDay } from '@/lib/format';
import { formatUsd } from '@/lib/invoice-math';
import { toast } from '@/stores/toasts';
import type { Page } from '@/types/api';

import { downloadInvoicePdf } from '../api/download-invoice-pdf';
import { INVOICES_URL, type InvoiceSortKey } from '../api/get-invoices';
import { invoiceKeys } from '../api/query-keys';
import { INVOICE_STATUSES, type Invoice, type InvoiceStatus } from '../api/types';
import { updateInvoiceStatus, useUpdateInvoiceStatus } from '../api/update-invoice-status';
import { InvoiceStatusControl, STATUS_LABEL } from './invoice-board';

/** The columns a user may hide (the number always shows), each with the api's sort key. */
export const INVOICE_COLUMNS = [
  { key: 'customer', label: 'Customer', sort: 'customer' },
  { key: 'email', label: 'Email' },
  { key: 'date', label: 'Date', sort: 'date' },
  { key: 'due', label: 'Due', sort: 'dueDate' },
  { key: 'status', label: 'Status', sort: 'status' },
  { key: 'total', label: 'Total', sort: 'amount', numeric: true },
] as const satisfies readonly { key: string; label: string; sort?: InvoiceSortKey; numeric?: boolean }[];
export type InvoiceColumn = (typeof INVOICE_COLUMNS)[number]['key'];

const STATUS_OPTIONS = INVOICE_STATUSES.map((s) => [s, STATUS_LABEL[s]] as const);

/**
 * Invoice History as a dense table (issue 23): one page of every matching invoice, sorted and paged
 * by the server; ticked invoices (on any page) set to a status at once (paid ones stay paid) or
 * exported as CSV.
 */
export function InvoiceTable({ rows, state }: { rows: readonly Invoice[]; state: TableState<InvoiceSortKey, InvoiceColumn> }) {
  const { selection } = state;
  const [bulkStatus, setBulkStatus] = useState<InvoiceStatus | ''>('');
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const update = useUpdateInvoiceStatus({
    onError: (e) =>
      toast({ title: 'Failed to update invoice status', description: serverMessageOr(e, 'Please try again.'), variant: 'destructive' }),
  });
  const count = selection.picked.size;

  /** The ticked invoices: from the pages already read, else read one by one. */
  const chosen = async (): Promise<Invoice[]> => {
    const known = new Map<string, Invoice>();
    for (const [, page] of queryClient.getQueriesData<Page<Invoice>>({ queryKey: invoiceKeys.lists() })) {
      for (const i of page?.items ?? []) known.set(i.id, i);
    }
    return Promise.all(
      [...selection.picked].map(async (id) => known.get(id) ?? api.get<Invoice>(`${INVOICES_URL}/${encodeURIComponent(id)}`)),
    );
  };

  const applyStatus = async () => {
    if (!bulkStatus) return;
    setBusy(true);
    let picked: Invoice[];
    try {
      picked = await chosen();
    } catch (e) {
      setBusy(false);
      toast({ title: 'Failed to update invoice status', description: serverMessageOr(e as Error, 'Please try again.'), variant: 'destructive' });
      return;
    }
    const open = picked.filter((i) => i.status !== 'paid' && i.status !== bulkStatus);
    const results = await Promise.allSettled(open.map((i) => updateInvoiceStatus({ id: i.id, status: bulkStatus })));
    setBusy(false);
    const failed = results.filter((r) => r.status === 'rejected').length;
    const kept = picked.length - open.length;
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
    selection.clear();
    setBulkStatus('');
  };

  const exportCsv = async () => {
    try {
      const picked = await chosen();
      const csv = Papa.unparse(
        picked.map((i) => ({
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
    } catch (e) {
      toast({ title: 'Export failed', description: serverMessageOr(e as Error, 'Please try again.'), variant: 'destructive' });
    }
  };

  const download = async (invoice: Invoice) => {
    try {
      await downloadInvoicePdf(invoice);
    } catch (e) {
      toast({ title: 'Failed to download PDF', description: serverMessageOr(e as Error, 'Please try again.'), variant: 'destructive' });
    }
  };

  const cells: Record<InvoiceColumn, (i: Invoice) => ReactNode> = {
    customer: (i) => i.customerName,
    email: (i) => i.customerEmail ?? '—',
    date: (i) => formatDay(i.date),
    due: (i) => formatDay(i.dueDate),
    status: (i) => <InvoiceStatusControl invoice={i} disabled={update.isPending || busy} onChange={(status) => update.mutate({ id: i.id, status })} />,
    total: (i) => <span className="font-semibold text-slate-900">{formatUsd(i.totalAmount)}</span>,
  };

  return (
    <div className="space-y-3">
      {count > 0 ? (
        <div role="group" aria-label="Bulk actions" className="flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm">
          <span className="font-medium text-indigo-900">
            {count} {count === 1 ? 'invoice' : 'invoices'} selected
          </span>
          <span className="flex items-center gap-1">
            <span id="invoice-bulk-status">Set status</span>
            <Select
              aria-labelledby="invoice-bulk-status"
              size="sm"
              className="w-32"
              value={bulkStatus}
              onValueChange={(v) => setBulkStatus(v as InvoiceStatus | '')}
              options={STATUS_OPTIONS}
            />
          </span>
          <Button size="sm" disabled={!bulkStatus || busy} onClick={() => void applyStatus()}>
            {busy ? 'Applying…' : 'Apply'}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => void exportCsv()}>
            Export CSV
          </Button>
          <Button size="sm" variant="ghost" onClick={selection.clear}>
            Clear
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-500">Tick invoices to change their status or export them.</p>
      )}
      <DataTable
        label="Invoices"
        rows={rows}
        rowId={(i) => i.id}
        rowName={(i) => i.invoiceNumber}
        first={{ label: 'Number', sort: 'number', cell: (i) => i.invoiceNumber }}
        columns={INVOICE_COLUMNS.map((c) => ({ ...c, cell: cells[c.key] }))}
        state={state}
        actions={(inv) => (
          <Button size="sm" variant="secondary" onClick={() => void download(inv)} aria-label={`Download PDF of ${inv.invoiceNumber}`}>
            PDF
          </Button>
        )}
      />
    </div>
  );
}
