import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { FormSelect } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';

import { useSubmitLead, type LeadInput } from '../api/submit-lead';

export const COMPANY_TYPES = [
  ['bath-shower', 'Bath & shower'],
  ['kitchen-bath', 'Kitchen & bath'],
  ['accessible-bath', 'Accessible bath'],
  ['luxury-bath', 'Luxury bath'],
  ['plumbing', 'Plumbing'],
  ['roofing', 'Roofing'],
  ['home-improvement', 'Home improvement'],
] as const;
export const REVENUE_BANDS = ['5-10M', '10-25M', '25-50M', '50M+'] as const;

/** Seed 002 §5: only the first three fields are required. */
export const leadSchema = z.object({
  companyName: z.string().trim().min(2, 'Company name is required'),
  contactName: z.string().trim().min(2, 'Your name is required'),
  email: z.string().trim().pipe(z.email('Valid email is required')),
  phone: z.string().trim(),
  city: z.string().trim(),
  state: z.string().trim(),
  companyType: z.string(),
  annualRevenue: z.string(),
  message: z.string().trim(),
  fax: z.string(),
});

type FormValues = z.input<typeof leadSchema>;
type Parsed = z.output<typeof leadSchema>;

const orNull = (s: string) => (s === '' ? null : s);

const toInput = (v: Parsed): LeadInput => ({
  companyName: v.companyName,
  contactName: v.contactName,
  email: v.email,
  phone: orNull(v.phone),
  city: orNull(v.city),
  state: orNull(v.state),
  companyType: orNull(v.companyType),
  annualRevenue: orNull(v.annualRevenue),
  message: orNull(v.message),
  fax: v.fax,
});

export function LeadForm({ onSubmitted }: { onSubmitted: () => void }) {
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(leadSchema),
    defaultValues: {
      companyName: '',
      contactName: '',
      email: '',
      phone: '',
      city: '',
      state: '',
      companyType: '',
      annualRevenue: '',
      message: '',
      fax: '',
    },
  });
  const submit = useSubmitLead({ onSuccess: onSubmitted });

  return (
    <form noValidate aria-label="Schedule a Conversation" className="space-y-4" onSubmit={handleSubmit((v) => submit.mutate(toInput(v)))}>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Company name" error={errors.companyName?.message}>
          <input className={inputClass} autoComplete="organization" aria-required="true" {...register('companyName')} />
        </Field>
        <Field label="Your name" error={errors.contactName?.message}>
          <input className={inputClass} autoComplete="name" aria-required="true" {...register('contactName')} />
        </Field>
        <Field label="Email" error={errors.email?.message}>
          <input type="email" className={inputClass} autoComplete="email" aria-required="true" {...register('email')} />
        </Field>
        <Field label="Phone">
          <input type="tel" className={inputClass} autoComplete="tel" {...register('phone')} />
        </Field>
        <Field label="City">
          <input className={inputClass} autoComplete="address-level2" {...register('city')} />
        </Field>
        <Field label="State">
          <input className={inputClass} autoComplete="address-level1" placeholder="e.g. TX" {...register('state')} />
        </Field>
        <Field label="Company type">
          <FormSelect control={control} name="companyType" placeholder="Choose a type" options={COMPANY_TYPES} />
        </Field>
        <Field label="Annual revenue">
          <FormSelect control={control} name="annualRevenue" placeholder="Choose a range" options={REVENUE_BANDS.map((band) => [band, `$${band}`] as const)} />
        </Field>
      </div>
      <Field label="Message">
        <textarea rows={4} className={inputClass} {...register('message')} />
      </Field>
      {/* Honeypot: off-screen and out of the tab order, so only bots fill it. */}
      <div aria-hidden="true" className="absolute -left-[9999px]">
        <label>
          Fax
          <input tabIndex={-1} autoComplete="off" {...register('fax')} />
        </label>
      </div>
      {submit.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorMessage(submit.error)}
        </p>
      ) : null}
      <Button type="submit" disabled={submit.isPending}>
        {submit.isPending ? 'Sending…' : 'Schedule a Conversation'}
      </Button>
    </form>
  );
}
