import { useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Card } from '@/components/ui/states';
import { FormSelect } from '@/components/ui/select';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { AI_MODELS, AUDIENCES, useCreateSingleCampaign, type AiModel, type Audience } from '../api/single-campaigns';

export const MISSING_INFORMATION = 'Please provide campaign name and description.';

type FormValues = { name: string; description: string; targetAudience: Audience; aiModel: AiModel };

/** Creates a single campaign for an audience; a name and a description are required. */
export function SingleCampaignForm() {
  const { register, handleSubmit, reset, control } = useForm<FormValues>({
    defaultValues: { name: '', description: '', targetAudience: 'high-value', aiModel: 'gpt-5' },
  });
  const create = useCreateSingleCampaign({
    onSuccess: (c) => {
      toast({ title: 'Campaign Created', description: `${c.name}: ${c.totalRecipients} contacts in its audience.`, variant: 'success' });
      reset();
    },
    onError: (e) => toast({ title: 'Creation Failed', description: serverMessageOr(e, 'Failed to create campaign'), variant: 'destructive' }),
  });
  const submit = handleSubmit((v) => {
    if (!v.name.trim() || !v.description.trim()) {
      toast({ title: 'Missing Information', description: MISSING_INFORMATION, variant: 'destructive' });
      return;
    }
    create.mutate(v);
  });
  return (
    <Card title="Create Campaign">
      <form aria-label="Create campaign" onSubmit={submit} noValidate className="space-y-3">
        <Field label="Campaign name">
          <input className={inputClass} {...register('name')} />
        </Field>
        <Field label="Description">
          <textarea rows={3} className={inputClass} {...register('description')} />
        </Field>
        <Field label="Target audience">
          <FormSelect control={control} name="targetAudience" options={AUDIENCES} />
        </Field>
        <Field label="AI model">
          <FormSelect control={control} name="aiModel" options={AI_MODELS.map((m) => [m, m] as const)} />
        </Field>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create Campaign'}
        </Button>
      </form>
    </Card>
  );
}
