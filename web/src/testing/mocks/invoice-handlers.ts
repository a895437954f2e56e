import { http, HttpResponse } from 'msw';

import type { Invoice, InvoiceStatus } from '@/features/invoicing/api/types';
import type { InvoiceFormValues } from '@/features/invoicing/components/invoice-schema';
import { invoiceTotals, toTaxMilli } from '@/lib/invoice-math';

import { authed } from './authed';
import { db, makeJob, newId } from './db';


/** An invoice as the server stores it (totals from the same cents arithmetic). */
export function makeInvoice(input: Partial<InvoiceFormValues> & { status?: InvoiceStatus } = {}): Invoice {
  const lines = input.lineItems ?? [{ productId: null, description: 'Grab bar', quantity: '2', unitPrice: '50' }];
  const t = invoiceTotals(lines, input.discountAmount ?? '', input.taxRate ?? '8.5');
  const inv: Invoice = {
    id: newId('inv'),
    invoiceNumber: input.invoiceNumber ?? `INV-${db.nextId}`,
    customerName: input.customerName ?? 'Sunrise Bath',
    customerEmail: input.customerEmail || null,
    customerPhone: input.customerPhone || null,
    billingAddress: input.billingAddress || null,
    notes: input.notes || null,
    taxRate: (toTaxMilli(input.taxRate ?? '8.5') ?? 0) / 1000,
    discountAmount: t.discount / 100,
    status: input.status ?? 'draft',
    date: input.date ?? '2026-11-02',
    dueDate: input.dueDate ?? '2026-12-02',
    totalAmount: t.total / 100,
    totals: { subtotal: t.subtotal / 100, discountAmount: t.discount / 100, taxAmount: t.tax / 100, totalAmount: t.total / 100 },
    lineItems: lines.map((l, i) => ({
      id: `li-${i}`,
      productId: l.productId,
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: Number(l.unitPrice),
      totalPrice: Number(l.quantity) * Number(l.unitPrice),
    })),
    paidAt: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
  db.invoices.unshift(inv);
  return inv;
}

/** As the server numbers a blank invoice: the next of the year's `INV-YYYY-NNNN` series. */
function nextNumber(year: string): string {
  const prefix = `INV-${year}-`;
  const last = Math.max(0, ...db.invoices.map((i) => i.invoiceNumber).filter((n) => /^\d+$/.test(n.slice(prefix.length)) && n.startsWith(prefix)).map((n) => Number(n.slice(prefix.length))));
  return `${prefix}${String(last + 1).padStart(4, '0')}`;
}

export const UPLOADED_PRODUCTS: [string, number][] = [
  ['Shower Seat', 249.99],
  ['Grab Bar', 39.5],
  ['Walk-in Tub', 4999],
  ['Hand Rail', 20],
];

/** The invoices the list's filters match, newest first, as the server filters them. */
function matching(url: URL) {
  const q = (url.searchParams.get('search') ?? '').toLowerCase();
  const status = url.searchParams.get('status');
  const from = url.searchParams.get('dateFrom');
  const to = url.searchParams.get('dateTo');
  return db.invoices.filter(
    (i) =>
      (!q || i.invoiceNumber.toLowerCase().includes(q) || i.customerName.toLowerCase().includes(q)) &&
      (!status || i.status === status) &&
      (!from || i.date >= from) &&
      (!to || i.date <= to),
  );
}

/** The list's `sort` and `dir` as the api reads them (docs/records.md); ties by id the same way. */
const INVOICE_SORT_KEYS: Record<string, { dir: 'asc' | 'desc'; value: (i: Invoice) => string | number }> = {
  created: { dir: 'desc', value: (i) => i.createdAt },
  number: { dir: 'desc', value: (i) => i.invoiceNumber },
  customer: { dir: 'asc', value: (i) => i.customerName.toLowerCase() },
  date: { dir: 'desc', value: (i) => i.date },
  dueDate: { dir: 'desc', value: (i) => i.dueDate },
  amount: { dir: 'desc', value: (i) => i.totalAmount },
  status: { dir: 'asc', value: (i) => i.status },
};

function sortedInvoices(rows: Invoice[], url: URL): Invoice[] | Response {
  const sort = url.searchParams.get('sort');
  if (sort === null) return rows;
  const key = INVOICE_SORT_KEYS[sort];
  const dir = url.searchParams.get('dir') ?? key?.dir;
  if (!key || (dir !== 'asc' && dir !== 'desc')) {
    const field = key ? 'dir' : 'sort';
    return HttpResponse.json({ message: `${field} is not valid`, errors: { [field]: `${field} is not valid` } }, { status: 422 });
  }
  const compare = (x: string | number, y: string | number) =>
    typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => (compare(key.value(a), key.value(b)) || compare(a.id, b.id)) * sign);
}

const tally = (rows: Invoice[]) => ({ count: rows.length, amount: rows.reduce((a, i) => a + Math.round(i.totalAmount * 100), 0) / 100 });

export const invoiceHandlers = [
  http.get('/api/invoices', authed(({ request }) => {
    const url = new URL(request.url);
    const rows = sortedInvoices(matching(url), url);
    if (rows instanceof Response) return rows;
    const limit = Number(url.searchParams.get('limit')) || 100;
    const offset = Number(url.searchParams.get('offset')) || 0;
    return HttpResponse.json(rows.slice(offset, offset + limit), { headers: { 'X-Total-Count': String(rows.length) } });
  })),
  http.get('/api/invoices/summary', authed(({ request }) => {
    const rows = matching(new URL(request.url));
    const by = (...s: string[]) => rows.filter((i) => s.includes(i.status));
    return HttpResponse.json({
      count: rows.length,
      totalAmount: tally(rows).amount,
      paid: tally(by('paid')),
      outstanding: tally(by('sent', 'overdue')),
      overdue: tally(by('overdue')),
    });
  })),
  http.get('/api/invoices/next-number', authed(({ request }) => {
    const year = (new URL(request.url).searchParams.get('date') ?? '2026').slice(0, 4);
    return HttpResponse.json({ invoiceNumber: nextNumber(year) });
  })),
  http.post('/api/invoices', authed(async ({ request }) => {
    // The editor sends its form values as typed.
    const input = (await request.json()) as InvoiceFormValues;
    const body = { ...input, invoiceNumber: input.invoiceNumber.trim() || nextNumber(input.date.slice(0, 4)) };
    if (!body.customerName.trim()) {
      return HttpResponse.json({ message: 'Customer name is required', errors: { customerName: 'Customer name is required' } }, { status: 422 });
    }
    if (db.invoices.some((i) => i.invoiceNumber === body.invoiceNumber)) {
      return HttpResponse.json({ message: 'Invoice number already exists' }, { status: 409 });
    }
    return HttpResponse.json({ ...makeInvoice(body), pdfJobId: 'job-pdf' }, { status: 201 });
  })),
  http.patch('/api/invoices/:id', authed(async ({ params, request }) => {
    const inv = db.invoices.find((i) => i.id === params.id);
    if (!inv) return HttpResponse.json({ message: 'Invoice not found' }, { status: 404 });
    if (inv.status === 'paid') return HttpResponse.json({ message: 'Paid invoices cannot be changed' }, { status: 409 });
    const { status } = (await request.json()) as { status: InvoiceStatus };
    inv.status = status;
    return HttpResponse.json(inv);
  })),
  // The invoice_send job stays queued: tests finish it (and mark the invoice sent) themselves.
  http.post('/api/invoices/:id/send', authed(({ params }) => {
    const inv = db.invoices.find((i) => i.id === params.id);
    if (!inv) return HttpResponse.json({ message: 'Invoice not found' }, { status: 404 });
    if (inv.status === 'paid') return HttpResponse.json({ message: 'Paid invoices cannot be sent' }, { status: 409 });
    if (!inv.customerEmail) return HttpResponse.json({ message: 'This invoice has no customer email' }, { status: 422 });
    db.invoiceSends.push(inv.id);
    const job = makeJob({ kind: 'invoice_send' });
    db.jobs.push(job);
    return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
  })),
  http.get('/api/invoices/:id/pdf', authed(({ params }) => {
    const inv = db.invoices.find((i) => i.id === params.id);
    if (!inv) return HttpResponse.json({ message: 'Invoice not found' }, { status: 404 });
    return new HttpResponse('%PDF-1.7', {
      headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="invoice-${inv.invoiceNumber}.pdf"` },
    });
  })),
  http.post('/api/create-payment-intent', authed(async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    db.payments.push(body);
    return HttpResponse.json({
      demo: true,
      paymentId: 'pay-1',
      clientSecret: null,
      status: 'demo',
      amount: Math.round(Number(body.amount) * 100),
      currency: 'usd',
      message: 'Demo mode: no payment provider is configured (STRIPE_SECRET_KEY), so nothing was charged. The invoice is marked payable.',
    });
  })),
  http.get('/api/catalog', authed(() => HttpResponse.json(db.catalog))),
  // jsdom's File does not survive the trip through the test fetch as bytes, so the mock answers with a
  // fixed price list; tests override it for the refusals. The parsing itself is tested in Rust.
  http.post('/api/catalog/upload', authed(() => {
    for (const [name, price] of UPLOADED_PRODUCTS) {
      db.catalog.push({ id: newId('p'), name, description: null, price, category: null, sku: null });
    }
    const n = UPLOADED_PRODUCTS.length;
    return HttpResponse.json({ format: 'csv', added: n, skipped: 0, message: `${n} products loaded from the CSV file`, products: db.catalog });
  })),
];
