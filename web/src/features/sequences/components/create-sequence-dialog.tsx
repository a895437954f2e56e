import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormSelect } from '@/components/ui/select';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useCreateSequence } from '../api/change-sequence';
import { TRIGGER_TYPES } from '../api/types';

export const NAME_MESSAGE = 'Name must be at least 2 characters';
export const DESCRIPTION_MESSAGE = 'Description must be at least 10 characters';

/** The workflow schema of seed 002 §5. */
export const sequenceSchema = z.object({
  name: z.string().trim().min(2, NAME_MESSAGE),
  description: z.string().trim().min(10, DESCRIPTION_MESSAGE),
  triggerType: z.enum(TRIGGER_TYPES),
  abTestingEnabled: z.boolean(),
  maxDailyEnrollments: z.coerce.number<string>().int().min(1, 'Max daily enrollments must be at least 1'),
});

type FormValues = z.input<typeof sequenceSchema>;
type Parsed = z.output<typeof sequenceSchema>;

export function CreateSequenceDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(sequenceSchema),
    defaultValues: { name: '', description: '', triggerType: 'manual', abTestingEnabled: false, maxDailyEnrollments: '50' },
  });
  const create = useCreateSequence({
    onSuccess: (s) => {
      toast({ title: 'Sequence Created', description: s.name, variant: 'success' });
      onCreated(s.id);
    },
    onError: (e) =>
      toast({
        title: 'Creation Failed',
        description: (e instanceof ApiError && e.serverMessage) || 'Failed to create sequence',
        variant: 'destructive',
      }),
  });
  const submit = handleSubmit((v) => create.mutate({ ...v, status: 'draft' }));

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Create Email Sequence">
      <form aria-label="Create sequence" onSubmit={submit} noValidate className="space-y-3">
        <Field label="Sequence Name" error={errors.name?.message}>
          <input className={inputClass} {...register('name')} />
        </Field>
        <Field label="Description" error={errors.description?.message}>
          <textarea rows={3} className={inputClass} {...register('description')} />
        </Field>
        <Field label="Trigger Type">
          <FormSelect control={control} name="triggerType" options={TRIGGER_TYPES.map((t) => [t, t.replaceAll('_', ' ')] as const)} />
        </Field>
        <Field label="Max daily enrollments" error={errors.maxDailyEnrollments?.message}>
          <input type="number" min={1} className={inputClass} {...register('maxDailyEnrollments')} />
        </Field>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" role="switch" {...register('abTestingEnabled')} />
          Enable A/B Testing
        </label>
        <FormActions onCancel={onClose} pending={create.isPending} label="Create Sequence" pendingLabel="Creating..." />
      </form>
    </Dialog>
  );
}
