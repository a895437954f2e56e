import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { DateTimePicker } from '@/components/ui/date-picker';
import { Field, inputClass } from '@/components/ui/field';
import { RecordCombobox } from '@/components/ui/record-combobox';
import { Select } from '@/components/ui/select';
import { getContacts } from '@/features/contacts/api/get-contacts';
import { contactsKeys } from '@/features/contacts/api/query-keys';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

import type { CallInput, VoiceAgent } from '../api/types';

/** Seed 002 §5 "Voice call". */
export const MISSING_INFORMATION = 'Please select a contact, agent, and provide a call purpose';
export const FOLLOWUP_TIME_REQUIRED = 'Choose when to call back';

type FormValues = { contactId: string; agentId: string; purpose: string; scheduledFor: string };

type CallFormProps = {
  /** A call now, or a follow-up at a chosen time. */
  mode: 'call' | 'followup';
  /** Active agents only. */
  agents: VoiceAgent[];
  pending: boolean;
  onCall?: (input: CallInput) => void;
  /** `scheduledFor` in RFC 3339. */
  onFollowup?: (input: CallInput & { scheduledFor: string }) => void;
};

/** "Jane Roe — Acme Bath · +1 555 0100": who is called, where they work and the number dialled. */
export function contactLabel(c: Contact, companyName: string | null | undefined): string {
  const name = `${c.firstName} ${c.lastName}`;
  return `${name}${companyName ? ` — ${companyName}` : ''} · ${c.phone ?? 'no phone'}`;
}

/** Contact, agent and purpose; a follow-up adds its time (a datetime-local value, sent as RFC 3339). */
export function CallForm({ mode, agents, pending, onCall, onFollowup }: CallFormProps) {
  // The contact picked, as shown; any contact is found by typing (none are loaded up front).
  const [pickedContact, setPickedContact] = useState('');
  const followup = mode === 'followup';
  const { register, handleSubmit, formState, setError, control } = useForm<FormValues>({
    defaultValues: { contactId: '', agentId: '', purpose: '', scheduledFor: '' },
  });
  const { field: scheduledField } = useController({ control, name: 'scheduledFor' });
  const { field: contactField } = useController({ control, name: 'contactId' });
  const { field: agentField } = useController({ control, name: 'agentId' });

  const submit = handleSubmit((v) => {
    const input = { contactId: v.contactId, agentId: v.agentId, purpose: v.purpose.trim() };
    if (!input.contactId || !input.agentId || !input.purpose) {
      toast({ title: 'Missing Information', description: MISSING_INFORMATION, variant: 'destructive' });
      return;
    }
    if (!followup) {
      onCall?.(input);
      return;
    }
    const at = new Date(v.scheduledFor);
    if (!v.scheduledFor || Number.isNaN(at.getTime())) {
      setError('scheduledFor', { message: FOLLOWUP_TIME_REQUIRED });
      return;
    }
    onFollowup?.({ ...input, scheduledFor: at.toISOString() });
  });

  const label = followup ? 'Schedule follow-up' : 'Initiate call';
  return (
    <form noValidate aria-label={label} onSubmit={submit} className="space-y-3">
      <Field label="Contact">
        <RecordCombobox
          value={contactField.value}
          valueLabel={pickedContact}
          onChange={(o) => {
            contactField.onChange(o?.id ?? '');
            setPickedContact(o?.label ?? '');
          }}
          // Its own key: these options read with the phone, unlike other contact pickers'.
          queryKey={(text) => [...contactsKeys.combobox(text), 'call']}
          search={(q, signal) =>
            getContacts({ q: q || undefined, limit: 20, offset: 0 }, { signal }).then((page) =>
              page.items.map((c) => ({ id: c.id, label: contactLabel(c, c.companyName) })),
            )
          }
          noneLabel="No contact"
          placeholder="Type a name or email"
        />
      </Field>
      <Field label="Agent" hint={agents.length === 0 ? 'No active agents: add or activate one first.' : undefined}>
        <Select
          {...agentField}
                    placeholder="Select an agent"
          options={agents.map((a) => [a.id, a.name] as const)}
        />
      </Field>
      <Field label="Call purpose">
        <textarea rows={3} className={inputClass} placeholder="e.g. Qualify interest in the dealer program" {...register('purpose')} />
      </Field>
      {followup ? (
        <Field label="Call back at" error={formState.errors.scheduledFor?.message}>
          <DateTimePicker {...scheduledField} />
        </Field>
      ) : null}
      <Button type="submit" disabled={pending}>
        {followup ? (pending ? 'Scheduling...' : 'Schedule Follow-up') : pending ? 'Calling...' : 'Start Call'}
      </Button>
    </form>
  );
}
