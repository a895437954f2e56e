import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { RecordCombobox } from '@/components/ui/record-combobox';
import { Select } from '@/components/ui/select';
import { getCompanies } from '@/features/companies/api/get-companies';
import { companiesKeys } from '@/features/companies/api/query-keys';
import { ApiError } from '@/lib/api-client';
import { isOneOf } from '@/lib/guards';
import { toast } from '@/stores/toasts';
import type { Contact, ContactStatus } from '@/types/api';

import { useSaveContact, type ContactInput } from '../api/save-contact';

/** Seed 001 §5: the add-contact message when a required field is empty. */
export const REQUIRED_FIELDS_TITLE = 'Required Fields Missing';
export const REQUIRED_FIELDS_TEXT = 'Please fill in first name, last name, and email address.';
export const INVALID_EMAIL = 'Please enter a valid email address.';

/** Statuses offered when adding a contact; discovered is the default. */
export const ADD_STATUSES = ['discovered', 'verified', 'contacted', 'qualified'] as const satisfies readonly ContactStatus[];
/** Editing may set any status, e.g. new_lead to put a contact on the lead pipeline. */
export const ALL_STATUSES = [
  ...ADD_STATUSES,
  'new_lead',
  'email_sent',
  'meeting_scheduled',
  'responded',
  'customer',
  'lost',
  'hot',
  'warm',
  'cold',
] as const satisfies readonly ContactStatus[];

const required = (label: string) => z.string().trim().min(1, `${label} is required`);

export const contactSchema = z.object({
  firstName: required('First name'),
  lastName: required('Last name'),
  email: required('Email').pipe(z.email(INVALID_EMAIL)),
  phone: z.string().trim(),
  title: z.string().trim(),
  department: z.string().trim(),
  companyId: z.string(),
  status: z.enum(ALL_STATUSES),
  notes: z.string().trim(),
});

type FormValues = z.input<typeof contactSchema>;
type Parsed = z.output<typeof contactSchema>;

const orNull = (s: string) => (s === '' ? null : s);

function toInput(v: Parsed): ContactInput {
  return {
    firstName: v.firstName,
    lastName: v.lastName,
    email: v.email,
    phone: orNull(v.phone),
    title: orNull(v.title),
    department: orNull(v.department),
    companyId: orNull(v.companyId),
    status: v.status,
    notes: orNull(v.notes),
  };
}

type Props = {
  /** The contact to edit; absent to add one. */
  contact?: Contact;
  onClose: () => void;
};

export function ContactFormDialog({ contact, onClose }: Props) {
  const editing = contact !== undefined;
  // The company picked in this dialog, as shown; the contact's own until another is picked.
  const [companyLabel, setCompanyLabel] = useState(contact?.companyName ?? '');
  const currentStatus = contact?.status;
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitted },
  } = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(contactSchema),
    defaultValues: {
      firstName: contact?.firstName ?? '',
      lastName: contact?.lastName ?? '',
      email: contact?.email ?? '',
      phone: contact?.phone ?? '',
      title: contact?.title ?? '',
      department: contact?.department ?? '',
      companyId: contact?.companyId ?? '',
      status: isOneOf(ALL_STATUSES, currentStatus) ? currentStatus : 'discovered',
      notes: contact?.notes ?? '',
    },
  });
  const { field: companyField } = useController({ control, name: 'companyId' });
  const { field: statusField } = useController({ control, name: 'status' });
  const save = useSaveContact({
    onSuccess: (saved) => {
      toast({
        title: editing ? 'Contact Updated' : 'Contact Added',
        description: `${saved.firstName} ${saved.lastName} was saved.`,
        variant: 'success',
      });
      onClose();
    },
    onError: (error) =>
      toast({
        title: editing ? 'Update Failed' : 'Failed to Add Contact',
        description:
          error instanceof ApiError && error.serverMessage
            ? error.serverMessage
            : 'There was an error adding the contact. Please try again.',
        variant: 'destructive',
      }),
  });

  const missingRequired = isSubmitted && (errors.firstName || errors.lastName || (errors.email && errors.email.message !== INVALID_EMAIL));
  const statuses: readonly ContactStatus[] = editing ? ALL_STATUSES : ADD_STATUSES;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={editing ? 'Edit Contact' : 'Add Contact'} size="lg">
      <form
        noValidate
        aria-label={editing ? 'Edit contact' : 'Add contact'}
        onSubmit={handleSubmit((values) => save.mutate({ id: contact?.id, input: toInput(values) }))}
        className="space-y-4"
      >
        {missingRequired ? (
          <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
            <p className="font-semibold">{REQUIRED_FIELDS_TITLE}</p>
            <p>{REQUIRED_FIELDS_TEXT}</p>
          </div>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" error={errors.firstName?.message}>
            <input className={inputClass} autoComplete="given-name" aria-required="true" {...register('firstName')} />
          </Field>
          <Field label="Last name" error={errors.lastName?.message}>
            <input className={inputClass} autoComplete="family-name" aria-required="true" {...register('lastName')} />
          </Field>
          <Field label="Email" error={errors.email?.message}>
            <input type="email" className={inputClass} autoComplete="email" aria-required="true" {...register('email')} />
          </Field>
          <Field label="Phone">
            <input type="tel" className={inputClass} autoComplete="tel" {...register('phone')} />
          </Field>
          <Field label="Title">
            <input className={inputClass} {...register('title')} />
          </Field>
          <Field label="Department">
            <input className={inputClass} {...register('department')} />
          </Field>
          <Field label="Company">
            <RecordCombobox
              value={companyField.value}
              valueLabel={companyLabel}
              onChange={(o) => {
                companyField.onChange(o?.id ?? '');
                setCompanyLabel(o?.label ?? '');
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
          <Field label="Status">
            <Select
              {...statusField}
                            options={statuses.map((s) => [s, s.replaceAll('_', ' ')] as const)}
            />
          </Field>
        </div>
        <Field label="Notes">
          <textarea rows={3} className={inputClass} {...register('notes')} />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : editing ? 'Save Contact' : 'Add Contact'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
