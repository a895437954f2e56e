import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { DateTimePicker } from '@/components/ui/date-picker';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { RecordCombobox } from '@/components/ui/record-combobox';
import { Select } from '@/components/ui/select';
import { getContacts } from '@/features/contacts/api/get-contacts';
import { contactsKeys } from '@/features/contacts/api/query-keys';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { MEETING_TYPES, useCreateMeeting, type MeetingInput } from '../api/create-meeting';

export const meetingSchema = z.object({
  title: z.string().trim().min(1, 'Title is required'),
  /** A datetime-local value (local time, no zone), as the date-time picker gives it. */
  scheduledDate: z
    .string()
    .min(1, 'Date and time are required')
    .refine((v) => !Number.isNaN(new Date(v).getTime()), 'Enter a valid date and time'),
  duration: z.coerce
    .number<string>({ error: 'Duration must be a whole number of minutes' })
    .int('Duration must be a whole number of minutes')
    .min(1, 'Duration must be at least 1 minute')
    .max(1440, 'Duration must be at most 1440 minutes'),
  meetingType: z.enum(MEETING_TYPES),
  location: z.string().trim(),
  contactId: z.string(),
  attendees: z.string().trim(),
  agenda: z.string().trim(),
  description: z.string().trim(),
});

type FormValues = z.input<typeof meetingSchema>;
type Parsed = z.output<typeof meetingSchema>;

const orNull = (s: string) => (s === '' ? null : s);

const toInput = (v: Parsed): MeetingInput => ({
  title: v.title,
  // The browser's local time, sent with its zone as ISO 8601.
  scheduledDate: new Date(v.scheduledDate).toISOString(),
  duration: v.duration,
  meetingType: v.meetingType,
  location: orNull(v.location),
  contactId: orNull(v.contactId),
  companyId: null,
  attendees: orNull(v.attendees),
  agenda: orNull(v.agenda),
  description: orNull(v.description),
});

export function MeetingFormDialog({ onClose }: { onClose: () => void }) {
  // The contact picked, as shown (the whole table is searched, never loaded).
  const [contactLabel, setContactLabel] = useState('');
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(meetingSchema),
    defaultValues: {
      title: '',
      scheduledDate: '',
      duration: '60',
      meetingType: 'discovery',
      location: '',
      contactId: '',
      attendees: '',
      agenda: '',
      description: '',
    },
  });
  const { field: scheduledField } = useController({ control, name: 'scheduledDate' });
  const { field: typeField } = useController({ control, name: 'meetingType' });
  const { field: contactField } = useController({ control, name: 'contactId' });
  const create = useCreateMeeting({
    onSuccess: (m) => {
      toast({ title: 'Meeting Scheduled', description: `"${m.title}" was added to your meetings.`, variant: 'success' });
      onClose();
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: serverMessageOr(error, 'Failed to schedule meeting'),
        variant: 'destructive',
      }),
  });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Schedule Meeting" size="lg">
      <form noValidate aria-label="Schedule meeting" className="space-y-4" onSubmit={handleSubmit((v) => create.mutate(toInput(v)))}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Title" error={errors.title?.message} className="sm:col-span-2">
            <input className={inputClass} aria-required="true" {...register('title')} />
          </Field>
          <Field label="Date and time" error={errors.scheduledDate?.message}>
            <DateTimePicker aria-required {...scheduledField} />
          </Field>
          <Field label="Duration (minutes)" error={errors.duration?.message}>
            <input type="number" min={1} max={1440} step={1} className={inputClass} {...register('duration')} />
          </Field>
          <Field label="Meeting type">
            <Select
              {...typeField}
                            options={MEETING_TYPES.map((t) => [t, t] as const)}
            />
          </Field>
          <Field label="Location">
            <input className={inputClass} {...register('location')} />
          </Field>
          <Field label="Contact">
            <RecordCombobox
              value={contactField.value}
              valueLabel={contactLabel}
              onChange={(o) => {
                contactField.onChange(o?.id ?? '');
                setContactLabel(o?.label ?? '');
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
          <Field label="Attendees" hint="Comma-separated names or emails">
            <input className={inputClass} {...register('attendees')} />
          </Field>
        </div>
        <Field label="Agenda">
          <textarea rows={2} className={inputClass} {...register('agenda')} />
        </Field>
        <Field label="Description">
          <textarea rows={2} className={inputClass} {...register('description')} />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Scheduling…' : 'Schedule Meeting'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
