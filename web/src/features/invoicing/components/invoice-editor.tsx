import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useController, useFieldArray, useForm, useWatch } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Field, inputClass } from '@/components/ui/field';
import { Card } from '@/components/ui/states';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { serverMessageOr } from '@/lib/api-client';
import { DEFAULT_TAX_RATE, DUE_DAYS, formatCents, invoiceTotals, isoDate, toCents } from '@/lib/invoice-math';
import { toast } from '@/stores/toasts';

import { useCreateInvoice } from '../api/create-invoice';
import { useCreatePaymentIntent } from '../api/create-payment-intent';
import { downloadInvoicePdf } from '../api/download-invoice-pdf';
import { useNextInvoiceNumber } from '../api/get-next-number';
import { invoiceKeys } from '../api/query-keys';
import { useSendInvoice } from '../api/send-invoice';
import type { CatalogProduct, Invoice } from '../api/types';
import { CatalogCard } from './catalog-card';
import { blankInvoice, emptyLine, invoiceSchema, NO_CUSTOMER_EMAIL, type InvoiceFormValues } from './invoice-schema';

type Action = 'save' | 'send' | 'charge' | 'download';

/** An invoice being emailed: its `invoice_send` job, followed until it ends. */
type Emailing = { jobId: string; invoiceNumber: string; email: string };

/**
 * The invoice being written (seed 002 §2): the catalog to pick products from, invoice details, line
 * items, totals, notes, and save / send / charge / download. Sending is a job, followed until it ends.
 */
export function InvoiceEditor() {
  // The invoice saved from exactly these form values (as JSON), reused by the next action.
  const [saved, setSaved] = useState<{ invoice: Invoice; values: string } | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);
  const [emailing, setEmailing] = useState<Emailing | null>(null);
  const form = useForm<InvoiceFormValues>({ resolver: zodResolver(invoiceSchema), defaultValues: blankInvoice() });
  const { register, control, handleSubmit, formState, reset, setValue } = form;
  const lines = useFieldArray({ control, name: 'lineItems' });
  const { field: dateField } = useController({ control, name: 'date' });
  const { field: dueDateField } = useController({ control, name: 'dueDate' });
  const watched = useWatch({ control });
  const next = useNextInvoiceNumber(watched.date ?? '');
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
  const ensureSaved = async (values: InvoiceFormValues): Promise<Invoice> => {
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
    <>
      <CatalogCard onAdd={addProduct} />
      <form aria-label="Invoice" noValidate onSubmit={(e) => e.preventDefault()} className="space-y-6">
        <Card title="Invoice Details">
          <div className="grid gap-3 sm:grid-cols-3">
            <Field
              label="Invoice number"
              error={errors.invoiceNumber?.message}
              hint={next.data ? `Left blank, it gets the next number (${next.data.invoiceNumber}).` : 'Left blank, it gets the next number.'}
            >
              <input className={inputClass} placeholder={next.data?.invoiceNumber} {...register('invoiceNumber')} />
            </Field>
            <Field label="Date" error={errors.date?.message}>
              <DatePicker
                {...dateField}
                onChange={(d) => {
                  dateField.onChange(d);
                  if (d) setValue('dueDate', isoDate(new Date(`${d}T00:00:00`), DUE_DAYS));
                }}
              />
            </Field>
            <Field label="Due date" error={errors.dueDate?.message}>
              <DatePicker {...dueDateField} />
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
    </>
  );
}
