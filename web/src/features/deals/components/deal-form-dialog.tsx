import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { RecordCombobox, type ComboOption } from '@/components/ui/record-combobox';
import { Select } from '@/components/ui/select';
import { getCompanies } from '@/features/companies/api/get-companies';
import { companiesKeys } from '@/features/companies/api/query-keys';
import { getCompanyQueryOptions } from '@/features/companies/api/get-company';
import { getContactQueryOptions } from '@/features/contacts/api/get-contact';
import { getContacts } from '@/features/contacts/api/get-contacts';
import { contactsKeys } from '@/features/contacts/api/query-keys';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { Deal } from '@/types/api';

import { useCreateDeal, type DealInput } from '../api/create-deal';
import { useUpdateDeal } from '../api/update-deal';
import { DEAL_STAGES, type DealStage } from '../api/stages';

const STAGE_VALUES = DEAL_STAGES.map((s) => s.stage) as [DealStage, ...DealStage[]];

/** Today as YYYY-MM-DD in local time: the earliest expected close date. */
export const today = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** Probability is coerced to a number from 0 to 100; anything non-numeric becomes 0 (seed 001 §5). */
export const coerceProbability = (raw: string): number => {
  const n = Number(raw);
  return Number.isFinite(n) && raw.trim() !== '' ? Math.min(100, Math.max(0, Math.round(n))) : 0;
};

/** The deal form's rules; an edited deal may keep the close date it already has, even if past. */
export const dealSchema = (keepDate = '') => z.object({
  title: z.string().trim().min(1, 'Deal title is required'),
  value: z
    .string()
    .trim()
    .min(1, 'Deal value is required')
    .regex(/^\d+$/, 'Deal value must be a whole number of dollars'),
  description: z.string().trim(),
  stage: z.enum(STAGE_VALUES),
  probability: z.string(),
  expectedCloseDate: z
    .string()
    .refine((d) => d === '' || d === keepDate || d >= today(), 'Expected close date cannot be in the past'),
  contactId: z.string(),
  companyId: z.string(),
  notes: z.string().trim(),
});

type FormValues = z.input<ReturnType<typeof dealSchema>>;
type Parsed = z.output<ReturnType<typeof dealSchema>>;

const orNull = (s: string) => (s === '' ? null : s);

const toInput = (v: Parsed): DealInput => ({
  title: v.title,
  value: Number(v.value),
  description: orNull(v.description),
  stage: v.stage,
  probability: coerceProbability(v.probability),
  expectedCloseDate: orNull(v.expectedCloseDate),
  contactId: orNull(v.contactId),
  companyId: orNull(v.companyId),
  notes: orNull(v.notes),
});

const valuesOf = (deal: Deal): FormValues => ({
  title: deal.title,
  value: deal.value,
  description: deal.description ?? '',
  stage: STAGE_VALUES.find((s) => s === deal.stage) ?? 'qualification',
  probability: String(deal.probability),
  expectedCloseDate: deal.expectedCloseDate ?? '',
  contactId: deal.contactId ?? '',
  companyId: deal.companyId ?? '',
  notes: deal.notes ?? '',
});

/** Add New Deal, or Edit Deal when given the deal to change. */
export function DealFormDialog({ deal, onClose }: { deal?: Deal; onClose: () => void }) {
  // The names of an edited deal's contact and company; a choice made here carries its own.
  const [picked, setPicked] = useState<{ contact?: string; company?: string }>({});
  const contact = useQuery({ ...getContactQueryOptions(deal?.contactId ?? ''), enabled: Boolean(deal?.contactId) });
  const company = useQuery({ ...getCompanyQueryOptions(deal?.companyId ?? ''), enabled: Boolean(deal?.companyId) });
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors },
  } = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(dealSchema(deal?.expectedCloseDate ?? '')),
    defaultValues: deal ? valuesOf(deal) : {
      title: '',
      value: '',
      description: '',
      stage: 'qualification',
      probability: '25',
      expectedCloseDate: '',
      contactId: '',
      companyId: '',
      notes: '',
    },
  });
  const create = useCreateDeal({
    onSuccess: (deal) => {
      toast({ title: 'Deal Created', description: `"${deal.title}" was added to the pipeline.`, variant: 'success' });
      onClose();
    },
    onError: (error) =>
      toast({
        title: 'Failed to Create Deal',
        description: serverMessageOr(error, 'Please check your information and try again.'),
        variant: 'destructive',
      }),
  });

  const update = useUpdateDeal({
    onSuccess: (d) => {
      toast({ title: 'Deal Updated', description: `"${d.title}" was saved.`, variant: 'success' });
      onClose();
    },
    onError: (error) =>
      toast({
        title: 'Failed to Update Deal',
        description: serverMessageOr(error, 'Please check your information and try again.'),
        variant: 'destructive',
      }),
  });
  const { field: contactField } = useController({ control, name: 'contactId' });
  const { field: companyField } = useController({ control, name: 'companyId' });
  const { field: closeDateField } = useController({ control, name: 'expectedCloseDate' });
  const save = (v: Parsed) => (deal ? update.mutate({ id: deal.id, ...toInput(v) }) : create.mutate(toInput(v)));
  const pending = create.isPending || update.isPending;

  const { field: stageField } = useController({ control, name: 'stage' });
  const chooseStage = (stage: string) => {
    stageField.onChange(stage);
    // Choosing a stage sets its usual probability (seed 001 §4).
    const info = DEAL_STAGES.find((s) => s.stage === stage);
    if (info) setValue('probability', String(info.probability));
  };

  const legend = 'text-sm font-semibold text-slate-900';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={deal ? 'Edit Deal' : 'Add New Deal'} size="lg">
      <form noValidate aria-label={deal ? 'Edit deal' : 'Add new deal'} className="space-y-5" onSubmit={handleSubmit(save)}>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className={legend}>Deal Information</legend>
          <Field label="Deal title" error={errors.title?.message} className="sm:col-span-2">
            <input className={inputClass} aria-required="true" {...register('title')} />
          </Field>
          <Field label="Value (USD)" error={errors.value?.message}>
            <input inputMode="numeric" className={inputClass} aria-required="true" {...register('value')} />
          </Field>
          <Field label="Description" className="sm:col-span-2">
            <textarea rows={2} className={inputClass} {...register('description')} />
          </Field>
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className={legend}>Sales Details</legend>
          <Field label="Stage">
            <Select
              {...stageField}
              onChange={chooseStage}
              options={DEAL_STAGES.map((s) => [s.stage, s.label] as const)}
            />
          </Field>
          <Field label="Probability (%)">
            <input type="number" min={0} max={100} className={inputClass} {...register('probability')} />
          </Field>
          <Field label="Expected close date" error={errors.expectedCloseDate?.message}>
            <DatePicker min={today()} {...closeDateField} />
          </Field>
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className={legend}>Relationships</legend>
          <Field label="Contact">
            <RecordCombobox
              value={contactField.value}
              valueLabel={picked.contact ?? (contact.data ? `${contact.data.firstName} ${contact.data.lastName}`.trim() : '')}
              onChange={(o: ComboOption | null) => {
                contactField.onChange(o?.id ?? '');
                setPicked((p) => ({ ...p, contact: o?.label ?? '' }));
              }}
              queryKey={contactsKeys.combobox}
              search={(q, signal) =>
                getContacts({ q: q || undefined, limit: 20, offset: 0 }, { signal }).then((page) =>
                  page.items.map((c) => ({ id: c.id, label: `${c.firstName} ${c.lastName}`.trim(), detail: c.companyName ?? c.email })),
                )
              }
              noneLabel="No contact"
              placeholder="Type a name or email"
            />
          </Field>
          <Field label="Company">
            <RecordCombobox
              value={companyField.value}
              valueLabel={picked.company ?? company.data?.name ?? ''}
              onChange={(o: ComboOption | null) => {
                companyField.onChange(o?.id ?? '');
                setPicked((p) => ({ ...p, company: o?.label ?? '' }));
              }}
              queryKey={companiesKeys.combobox}
              search={(q, signal) =>
                getCompanies({ q: q || undefined, limit: 20, offset: 0 }, { signal }).then((page) =>
                  page.items.map((c) => ({ id: c.id, label: c.name, detail: c.location })),
                )
              }
              noneLabel="No company"
              placeholder="Type a company name"
            />
          </Field>
        </fieldset>
        <fieldset>
          <legend className={legend}>Notes</legend>
          <Field label="Notes">
            <textarea rows={2} className={inputClass} {...register('notes')} />
          </Field>
        </fieldset>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {deal ? (pending ? 'Saving...' : 'Save Changes') : pending ? 'Creating...' : 'Create Deal'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
