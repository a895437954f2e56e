import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { Company } from '@/types/api';

import { useUpdateCompany, type CompanyUpdate } from '../api/update-company';

export const REVENUE_HINT = 'Enter full amount (e.g., 5000000 for $5M)';

const wholeOrEmpty = (message: string) => z.string().trim().regex(/^\d*$/, message);

/** Seed 000 §5: no required fields; revenue and employees are whole numbers or empty. */
export const companySchema = z.object({
  name: z.string().trim(),
  website: z.string().trim(),
  industry: z.string().trim(),
  revenue: wholeOrEmpty('Enter the revenue as a whole number of dollars'),
  employees: wholeOrEmpty('Enter the number of employees as a whole number'),
  address: z.string().trim(),
  city: z.string().trim(),
  state: z.string().trim(),
  zipCode: z.string().trim(),
  phone: z.string().trim(),
  description: z.string().trim(),
});

type FormValues = z.input<typeof companySchema>;
type Parsed = z.output<typeof companySchema>;

const orNull = (s: string) => (s === '' ? null : s);
const numberOrNull = (s: string) => (s === '' ? null : Number(s));

const toUpdate = (v: Parsed): CompanyUpdate => ({
  name: v.name,
  website: orNull(v.website),
  industry: orNull(v.industry),
  revenue: numberOrNull(v.revenue),
  employees: numberOrNull(v.employees),
  address: orNull(v.address),
  city: orNull(v.city),
  state: orNull(v.state),
  zipCode: orNull(v.zipCode),
  phone: orNull(v.phone),
  description: orNull(v.description),
});

const TEXT_FIELDS = [
  ['name', 'Name'],
  ['website', 'Website'],
  ['industry', 'Industry'],
  ['address', 'Address'],
  ['city', 'City'],
  ['state', 'State'],
  ['zipCode', 'ZIP code'],
  ['phone', 'Phone'],
] as const;

export function CompanyEditDialog({ company, onClose }: { company: Company; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(companySchema),
    defaultValues: {
      name: company.name,
      website: company.website ?? '',
      industry: company.industry ?? '',
      revenue: company.revenue ?? '',
      employees: company.employees?.toString() ?? '',
      address: company.address ?? '',
      city: company.city ?? '',
      state: company.state ?? '',
      zipCode: company.zipCode ?? '',
      phone: company.phone ?? '',
      description: company.description ?? '',
    },
  });
  const update = useUpdateCompany({
    onSuccess: (c) => {
      toast({ title: 'Company Updated', description: `${c.name} was saved.`, variant: 'success' });
      onClose();
    },
    onError: (error) =>
      toast({
        title: 'Update Failed',
        description:
          error instanceof ApiError && error.status === 422 && error.serverMessage
            ? error.serverMessage
            : 'Failed to update company information.',
        variant: 'destructive',
      }),
  });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Edit ${company.name}`} size="lg">
      <form
        noValidate
        aria-label="Edit company"
        className="space-y-4"
        onSubmit={handleSubmit((v) => update.mutate({ id: company.id, update: toUpdate(v) }))}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          {TEXT_FIELDS.map(([name, label]) => (
            <Field key={name} label={label}>
              <input className={inputClass} {...register(name)} />
            </Field>
          ))}
          <Field label="Revenue (USD)" hint={REVENUE_HINT} error={errors.revenue?.message}>
            <input inputMode="numeric" className={inputClass} {...register('revenue')} />
          </Field>
          <Field label="Employees" error={errors.employees?.message}>
            <input inputMode="numeric" className={inputClass} {...register('employees')} />
          </Field>
        </div>
        <Field label="Description">
          <textarea rows={3} className={inputClass} {...register('description')} />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save Company'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
