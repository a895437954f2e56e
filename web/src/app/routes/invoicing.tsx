import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { screenHref } from '@/config/paths';
import { useCreateInvoice, type InvoiceInput } from '@/features/invoicing/api/create-invoice';
import { useCreatePaymentIntent } from '@/features/invoicing/api/create-payment-intent';
import { downloadInvoicePdf } from '@/features/invoicing/api/download-invoice-pdf';
import { useCatalog } from '@/features/invoicing/api/get-catalog';
import { invoiceKeys } from '@/features/invoicing/api/query-keys';
import { useSendInvoice } from '@/features/invoicing/api/send-invoice';
import type { CatalogProduct, Invoice } from '@/features/invoicing/api/types';
import { useUploadCatalog } from '@/features/invoicing/api/upload-catalog';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { ApiError, serverMessageOr } from '@/lib/api-client';
import {
  DEFAULT_TAX_RATE,
  DUE_DAYS,
  defaultInvoiceNumber,
  formatCents,
  invoiceTotals,
  isoDate,
  toCents,
  toTaxMilli,
} from '@/lib/invoice-math';
import { toast } from '@/stores/toasts';

const CSV_COLUMNS = "CSV must contain 'name' and 'price' columns";
/** The api's refusal, checked before saving so a send without an address writes nothing. */
export const NO_CUSTOMER_EMAIL = 'This invoice has no customer email';

const lineSchema = z.object({
  productId: z.string().nullable(),
  description: z.string().trim().min(1, 'Description is required'),
  quantity: z.string().refine((q) => /^\d+$/.test(q.trim()) && Number(q) >= 1, 'Quantity must be at least 1'),
  unitPrice: z.string().refine((p) => toCents(p) !== null, 'Enter a price like 19.99'),
});

const schema = z.object({
  invoiceNumber: z.string().trim().min(1, 'Invoice number is required'),
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

const emptyLine = (): InvoiceInput['lineItems'][number] => ({ productId: null, description: '', quantity: '1', unitPrice: '' });

const blankInvoice = (): InvoiceInput => {
  const today = new Date();
  return {
    invoiceNumber: defaultInvoiceNumber(),
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

type Action = 'save' | 'send' | 'charge' | 'download';

/** An invoice being emailed: its `invoice_send` job, followed until it ends. */
type Emailing = { jobId: string; invoiceNumber: string; email: string };

/** Invoicing (seed 002 §2): catalog upload, invoice details, line items, totals, notes, and send / charge / download. */
export function InvoicingRoute() {
  const { pathname } = useLocation();
  // The invoice saved from exactly these form values (as JSON), reused by the next action.
  const [saved, setSaved] = useState<{ invoice: Invoice; values: string } | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);
  const [emailing, setEmailing] = useState<Emailing | null>(null);
  const form = useForm<InvoiceInput>({ resolver: zodResolver(schema), defaultValues: blankInvoice() });
  const { register, control, handleSubmit, formState, reset, setValue } = form;
  const lines = useFieldArray({ control, name: 'lineItems' });
  const watched = useWatch({ control });
  const totals = invoiceTotals(
    (watched.lineItems ?? []).map((l) => ({ quantity: l.quantity ?? '', unitPrice: l.unitPrice ?? '' })),
    watched.discountAmount ?? '',
    watched.taxRate ?? '',
  );
  const create = useCreateInvoice();
  const pay = useCreatePaymentIntent();
  const send = useSendInvoice();
  const errors = formState.errors;

  // An edit after saving makes a new invoice on the next action (the number must then change too).
  const ensureSaved = async (values: InvoiceInput): Promise<Invoice> => {
    const key = JSON.stringify(values);
    if (saved && saved.values === key) return saved.invoice;
    const invoice = await create.mutateAsync(values);
    setSaved({ invoice, values: key });
    return invoice;
  };

  useJobOutcome(emailing?.jobId, {
    onDone: (job) => {
      setEmailing(null);
      if (!emailing) return;
      if (job.status === 'succeeded') {
        toast({ title: 'Invoice Sent', description: `${emailing.invoiceNumber} was emailed to ${emailing.email}.`, variant: 'success' });
      } else {
        toast({ title: 'Send Failed', description: job.error ?? `Emailing ${emailing.invoiceNumber} was ${job.status}.`, variant: 'destructive' });
      }
    },
    onError: () => setEmailing(null),
    invalidate: [invoiceKeys.all],
  });

  const run = (action: Action) =>
    handleSubmit(async (values) => {
      if (action === 'send' && !values.customerEmail.trim()) {
        toast({ title: 'Send Failed', description: NO_CUSTOMER_EMAIL, variant: 'destructive' });
        return;
      }
      setBusy(action);
      try {
        const invoice = await ensureSaved(values);
        if (action === 'save') {
          toast({ title: 'Invoice Saved', description: `${invoice.invoiceNumber} saved as a draft.`, variant: 'success' });
        } else if (action === 'send') {
          try {
            const { jobId } = await send.mutateAsync({ id: invoice.id });
            const email = invoice.customerEmail ?? values.customerEmail.trim();
            setEmailing({ jobId, invoiceNumber: invoice.invoiceNumber, email });
            toast({ title: 'Sending Invoice', description: `${invoice.invoiceNumber} is being emailed to ${email}.`, variant: 'success' });
            setSaved(null);
            reset(blankInvoice());
          } catch (e) {
            toast({ title: 'Send Failed', description: serverMessageOr(e as Error, 'Failed to send invoice'), variant: 'destructive' });
          }
        } else if (action === 'charge') {
          try {
            const result = await pay.mutateAsync({
              amount: invoice.totalAmount,
              invoiceNumber: invoice.invoiceNumber,
              customerName: invoice.customerName,
            });
            toast(
              result.demo
                ? { title: 'Demo Payment', description: result.message ?? 'Nothing was charged.', variant: 'default' }
                : {
                    title: 'Payment Started',
                    description: `Payment ${result.paymentIntentId ?? ''} for ${formatCents(result.amount)} is ${result.status.replaceAll('_', ' ')}; the invoice is marked paid when Stripe confirms it.`,
                    variant: 'success',
                  },
            );
          } catch (e) {
            toast({ title: 'Payment Failed', description: serverMessageOr(e as Error, 'Failed to start the payment'), variant: 'destructive' });
          }
        } else {
          try {
            await downloadInvoicePdf(invoice);
          } catch (e) {
            toast({ title: 'Failed to download PDF', description: serverMessageOr(e as Error, 'Try again in a moment.'), variant: 'destructive' });
          }
        }
      } catch (e) {
        toast({ title: 'Save Failed', description: serverMessageOr(e as Error, 'Failed to save invoice'), variant: 'destructive' });
      } finally {
        setBusy(null);
      }
    })();

  const addProduct = (p: CatalogProduct) => {
    const first = form.getValues('lineItems.0');
    const item = { productId: p.id, description: p.name, quantity: '1', unitPrice: p.price.toFixed(2) };
    if (lines.fields.length === 1 && !first.description && !first.unitPrice) lines.update(0, item);
    else lines.append(item);
  };

  const noTotal = totals.total <= 0;

  return (
    <div className="space-y-6">
      <title>Invoicing · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Invoicing</h1>
        <Link to={screenHref('invoiceHistory', pathname)} className="text-sm font-semibold text-indigo-700 hover:underline">
          Invoice history
        </Link>
      </div>
      <CatalogCard onAdd={addProduct} />
      <form aria-label="Invoice" noValidate onSubmit={(e) => e.preventDefault()} className="space-y-6">
        <Card title="Invoice Details">
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="Invoice number" error={errors.invoiceNumber?.message}>
              <input className={inputClass} {...register('invoiceNumber')} />
            </Field>
            <Field label="Date" error={errors.date?.message}>
              <input
                type="date"
                className={inputClass}
                {...register('date', {
                  onChange: (e: { target: { value: string } }) => {
                    const d = e.target.value;
                    if (d) setValue('dueDate', isoDate(new Date(`${d}T00:00:00`), DUE_DAYS));
                  },
                })}
              />
            </Field>
            <Field label="Due date" error={errors.dueDate?.message}>
              <input type="date" className={inputClass} {...register('dueDate')} />
            </Field>
            <Field label="Customer name" error={errors.customerName?.message}>
              <input className={inputClass} autoComplete="organization" {...register('customerName')} />
            </Field>
            <Field label="Customer email" error={errors.customerEmail?.message}>
              <input type="email" className={inputClass} {...register('customerEmail')} />
            </Field>
            <Field label="Customer phone">
              <input type="tel" className={inputClass} {...register('customerPhone')} />
            </Field>
            <Field label="Billing address" className="sm:col-span-3">
              <textarea rows={2} className={inputClass} {...register('billingAddress')} />
            </Field>
          </div>
        </Card>
        <Card
          title="Line Items"
          actions={
            <Button type="button" variant="secondary" onClick={() => lines.append(emptyLine())}>
              Add Line Item
            </Button>
          }
        >
          {errors.lineItems?.message ? <p className="mb-2 text-sm text-rose-600">{errors.lineItems.message}</p> : null}
          <ol aria-label="Line items" className="space-y-3">
            {lines.fields.map((field, i) => {
              const e = errors.lineItems?.[i];
              const line = watched.lineItems?.[i];
              const q = Number.parseInt(line?.quantity ?? '', 10);
              const unit = toCents(line?.unitPrice ?? '');
              return (
                <li key={field.id} aria-label={`Line ${i + 1}`} className="grid gap-2 rounded-lg p-3 ring-1 ring-slate-200 sm:grid-cols-[1fr_6rem_8rem_7rem_auto] sm:items-end">
                  <Field label="Description" error={e?.description?.message}>
                    <input className={inputClass} {...register(`lineItems.${i}.description`)} />
                  </Field>
                  <Field label="Quantity" error={e?.quantity?.message}>
                    <input type="number" min={1} step={1} inputMode="numeric" className={inputClass} {...register(`lineItems.${i}.quantity`)} />
                  </Field>
                  <Field label="Unit price" error={e?.unitPrice?.message}>
                    <input type="number" min={0} step={0.01} inputMode="decimal" className={inputClass} {...register(`lineItems.${i}.unitPrice`)} />
                  </Field>
                  <p className="text-sm tabular-nums sm:pb-2" aria-label={`Line ${i + 1} total`}>
                    {Number.isFinite(q) && q >= 1 && unit !== null ? formatCents(q * unit) : '—'}
                  </p>
                  <Button
                    type="button"
                    variant="ghost"
                    disabled={lines.fields.length <= 1}
                    onClick={() => lines.remove(i)}
                    aria-label={`Remove line ${i + 1}`}
                  >
                    Remove
                  </Button>
                </li>
              );
            })}
          </ol>
        </Card>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Notes">
            <Field label="Notes">
              <textarea rows={4} className={inputClass} {...register('notes')} />
            </Field>
          </Card>
          <Card title="Totals">
            <div className="grid grid-cols-2 gap-3">
              <Field label="Tax rate (%)" error={errors.taxRate?.message}>
                <input
                  type="number"
                  min={0}
                  max={100}
                  step={0.1}
                  className={inputClass}
                  {...register('taxRate', {
                    // The seed resets an emptied rate to 8.5.
                    onBlur: (e: { target: { value: string } }) => {
                      if (e.target.value.trim() === '') setValue('taxRate', DEFAULT_TAX_RATE);
                    },
                  })}
                />
              </Field>
              <Field label="Discount ($)" error={errors.discountAmount?.message}>
                <input type="number" min={0} step={0.01} className={inputClass} {...register('discountAmount')} />
              </Field>
            </div>
            <dl aria-label="Invoice totals" className="mt-4 space-y-1 text-sm tabular-nums">
              <div className="flex justify-between">
                <dt>Subtotal</dt>
                <dd>{formatCents(totals.subtotal)}</dd>
              </div>
              <div className="flex justify-between">
                <dt>Discount</dt>
                <dd>−{formatCents(totals.discount)}</dd>
              </div>
              <div className="flex justify-between">
                <dt>Tax</dt>
                <dd>{formatCents(totals.tax)}</dd>
              </div>
              <div className="flex justify-between border-t border-slate-200 pt-1 text-base font-bold">
                <dt>Total</dt>
                <dd>{formatCents(totals.total)}</dd>
              </div>
            </dl>
          </Card>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="secondary" disabled={busy !== null} onClick={() => void run('save')}>
            {busy === 'save' ? 'Saving...' : 'Save Draft'}
          </Button>
          <Button type="button" disabled={busy !== null || noTotal || emailing !== null} onClick={() => void run('send')}>
            {busy === 'send' ? 'Sending...' : 'Send Invoice'}
          </Button>
          <Button type="button" disabled={busy !== null || noTotal} onClick={() => void run('charge')}>
            {busy === 'charge' ? 'Charging...' : 'Charge'}
          </Button>
          <Button type="button" variant="secondary" disabled={busy !== null} onClick={() => void run('download')}>
            {busy === 'download' ? 'Preparing PDF...' : 'Download PDF'}
          </Button>
        </div>
        {emailing ? (
          <p aria-live="polite" className="text-sm text-slate-600">
            Emailing {emailing.invoiceNumber} to {emailing.email}…
          </p>
        ) : null}
      </form>
    </div>
  );
}

/** The product catalog: upload a CSV or Excel price list, add products as line items. */
function CatalogCard({ onAdd }: { onAdd: (p: CatalogProduct) => void }) {
  const catalog = useCatalog();
  const upload = useUploadCatalog();
  const onFile = (file: File | undefined) => {
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (r) => toast({ title: 'Catalog Uploaded', description: r.message, variant: 'success' }),
      onError: (e) => {
        const message = serverMessageOr(e, 'Failed to upload catalog');
        if (message.startsWith('Invalid CSV Format')) {
          toast({ title: 'Invalid CSV Format', description: CSV_COLUMNS, variant: 'destructive' });
        } else if (e instanceof ApiError && e.status === 415 && message.startsWith('PDF')) {
          toast({ title: 'PDF Catalogs Not Supported', description: message, variant: 'destructive' });
        } else if (e instanceof ApiError && e.status === 415) {
          toast({ title: 'Unsupported File Type', description: 'Upload a CSV or Excel (.xlsx, .xls) file.', variant: 'destructive' });
        } else {
          toast({ title: 'Upload Failed', description: message, variant: 'destructive' });
        }
      },
    });
  };
  const products = catalog.data ?? [];
  return (
    <Card title="Product Catalog">
      <Field label="Upload catalog" hint="CSV or Excel with name and price columns (description, category and sku optional).">
        <input
          type="file"
          accept=".csv,.xlsx,.xls,.pdf,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
          className="block w-full text-sm"
          disabled={upload.isPending}
          onChange={(e) => {
            onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </Field>
      <div className="mt-3">
        {catalog.isPending ? (
          <Skeleton rows={2} label="Loading catalog" />
        ) : catalog.isError ? (
          <ErrorState title="Could not load the catalog" error={catalog.error} onRetry={() => void catalog.refetch()} />
        ) : products.length === 0 ? (
          <EmptyState title="No products yet">Upload a price list to pick line items from it.</EmptyState>
        ) : (
          <ul aria-label="Products" className="max-h-64 divide-y divide-slate-100 overflow-y-auto">
            {products.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-2 py-2 text-sm">
                <span className="min-w-0">
                  <span className="font-medium">{p.name}</span>
                  {p.sku ? <span className="ml-2 text-xs text-slate-500">{p.sku}</span> : null}
                </span>
                <span className="flex shrink-0 items-center gap-2">
                  <span className="tabular-nums">{formatCents(Math.round(p.price * 100))}</span>
                  <Button type="button" variant="secondary" onClick={() => onAdd(p)} aria-label={`Add ${p.name}`}>
                    Add
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
