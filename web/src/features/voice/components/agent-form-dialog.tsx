import { zodResolver } from '@hookform/resolvers/zod';
import { useController, useForm } from 'react-hook-form';
import { z } from 'zod';

import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { Select } from '@/components/ui/select';
import { toast } from '@/stores/toasts';

import { useCreateVoiceAgent, type VoiceAgentInput } from '../api/create-voice-agent';
import { AGENT_STATUSES, type VoiceAgent } from '../api/types';
import { useUpdateVoiceAgent } from '../api/update-voice-agent';

/** The api's message for a nameless agent, checked here first. */
export const AGENT_NAME_REQUIRED = 'Agent name is required';

const schema = z.object({
  name: z.string().trim().min(1, AGENT_NAME_REQUIRED),
  status: z.enum(AGENT_STATUSES),
  capabilities: z.string(),
  description: z.string().trim(),
});

type FormValues = z.input<typeof schema>;
type Parsed = z.output<typeof schema>;

/** "Appointment setting, lead qualification," → two capabilities. */
export const splitCapabilities = (text: string) =>
  text
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);

const toInput = (v: Parsed): VoiceAgentInput => ({
  name: v.name,
  status: v.status,
  capabilities: splitCapabilities(v.capabilities),
  description: v.description === '' ? null : v.description,
});

const STATUS_LABEL = [
  ['active', 'Active'],
  ['inactive', 'Inactive'],
] as const;

/** Adds an agent (no `agent`) or edits one: name, status, capabilities (comma-separated), description. */
export function AgentFormDialog({ agent, onClose }: { agent?: VoiceAgent; onClose: () => void }) {
  const editing = agent !== undefined;
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: agent?.name ?? '',
      status: agent?.status ?? 'active',
      capabilities: agent?.capabilities.join(', ') ?? '',
      description: agent?.description ?? '',
    },
  });
  const { field: statusField } = useController({ control, name: 'status' });
  const done = (a: VoiceAgent) => {
    toast({ title: editing ? 'Agent Updated' : 'Agent Added', description: a.name, variant: 'success' });
    onClose();
  };
  const create = useCreateVoiceAgent({ onSuccess: done });
  const update = useUpdateVoiceAgent({ onSuccess: done });
  const pending = create.isPending || update.isPending;
  const submit = handleSubmit((v) => {
    const input = toInput(v);
    if (agent) update.mutate({ id: agent.id, input });
    else create.mutate(input);
  });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={editing ? `Edit ${agent.name}` : 'Add Agent'}>
      <form noValidate aria-label={editing ? 'Edit agent' : 'Add agent'} className="space-y-4" onSubmit={submit}>
        <Field label="Agent name" error={errors.name?.message}>
          <input className={inputClass} aria-required="true" {...register('name')} />
        </Field>
        <Field label="Status">
          <Select
            {...statusField}
                        options={STATUS_LABEL}
          />
        </Field>
        <Field label="Capabilities" hint="Comma-separated, e.g. lead qualification, appointment setting">
          <input className={inputClass} {...register('capabilities')} />
        </Field>
        <Field label="Description">
          <textarea rows={2} className={inputClass} {...register('description')} />
        </Field>
        <FormError error={create.error ?? update.error} />
        <FormActions
          onCancel={onClose}
          pending={pending}
          label={editing ? 'Save Agent' : 'Add Agent'}
          pendingLabel={editing ? 'Saving...' : 'Adding...'}
        />
      </form>
    </Dialog>
  );
}
