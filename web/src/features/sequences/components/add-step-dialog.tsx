import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';

import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { useTemplates } from '@/features/campaigns/api/get-templates';
import { delayHint, parseDelay } from '@/lib/rules';
import { toast } from '@/stores/toasts';

import { useCreateStep } from '../api/change-sequence';
import { STEP_TYPES } from '../api/types';
import { NAME_MESSAGE } from './create-sequence-dialog';

const CHECKS = ['opened', 'clicked', 'replied'] as const;

const stepSchema = z.object({
  type: z.enum(STEP_TYPES),
  name: z.string().trim().min(2, NAME_MESSAGE),
  delay: z.string(),
  templateId: z.string(),
  check: z.enum(CHECKS),
  addTag: z.string().trim(),
});

type FormValues = z.infer<typeof stepSchema>;

/** What the server's step runner reads for each type (config). */
function configOf(v: FormValues): Record<string, unknown> {
  if (v.type === 'email') return v.templateId ? { templateId: v.templateId } : {};
  if (v.type === 'condition') return { check: v.check };
  if (v.type === 'action') return { addTag: v.addTag || 'sequence-step' };
  return {};
}

type Props = { sequenceId: string; nextOrder: number; onClose: () => void };

/** 'Add Sequence Step' (seed 002 §2) with a live days/hours/minutes hint for the delay. */
export function AddStepDialog({ sequenceId, nextOrder, onClose }: Props) {
  const templates = useTemplates();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(stepSchema),
    defaultValues: { type: 'email', name: '', delay: '0', templateId: '', check: 'opened', addTag: '' },
  });
  const [type, delay] = useWatch({ control, name: ['type', 'delay'] });
  const add = useCreateStep({
    onSuccess: (s) => {
      toast({ title: 'Step Added', description: s.name, variant: 'success' });
      onClose();
    },
  });
  const submit = handleSubmit((v) =>
    add.mutate({
      sequenceId,
      name: v.name,
      type: v.type,
      stepOrder: nextOrder,
      delayMinutes: parseDelay(v.delay),
      config: configOf(v),
    }),
  );

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Add Sequence Step">
      <form aria-label="Add step" onSubmit={submit} noValidate className="space-y-3">
        <Field label="Step Type">
          <select className={inputClass} {...register('type')}>
            {STEP_TYPES.map((t) => (
              <option key={t} value={t}>
                {t.replace('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Step Name" error={errors.name?.message}>
          <input className={inputClass} {...register('name')} />
        </Field>
        <Field label="Delay Before This Step (minutes)" hint={delayHint(parseDelay(delay))}>
          <input inputMode="numeric" className={inputClass} {...register('delay')} />
        </Field>
        {type === 'email' ? (
          <Field label="Email template">
            <select className={inputClass} {...register('templateId')}>
              <option value="">Built-in Follow-up (default)</option>
              {templates.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {type === 'condition' ? (
          <Field label="Continue when the contact has">
            <select className={inputClass} {...register('check')}>
              {CHECKS.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {type === 'action' ? (
          <Field label="Tag to add">
            <input className={inputClass} {...register('addTag')} />
          </Field>
        ) : null}
        <FormError error={add.error} />
        <FormActions onCancel={onClose} pending={add.isPending} label="Add Step" pendingLabel="Adding..." />
      </form>
    </Dialog>
  );
}
