import { useQuery } from '@tanstack/react-query';
import { useController, useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { DateTimePicker } from '@/components/ui/date-picker';
import { Field, inputClass } from '@/components/ui/field';
import { getCompaniesQueryOptions } from '@/features/companies/api/get-companies';
import { getContactsQueryOptions } from '@/features/contacts/api/get-contacts';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

import type { CallInput, VoiceAgent } from '../api/types';

/** Seed 002 §5 "Voice call". */
export const MISSING_INFORMATION = 'Please select a contact, agent, and provide a call purpose';
export const FOLLOWUP_TIME_REQUIRED = 'Choose when to call back';

/** The api's page maximum: every contact is offered. */
const ALL = { limit: 1000, offset: 0 };

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
export function contactLabel(c: Contact, companyName: string | undefined): string {
  const name = `${c.firstName} ${c.lastName}`;
  return `${name}${companyName ? ` — ${companyName}` : ''} · ${c.phone ?? 'no phone'}`;
}

/** Contact, agent and purpose; a follow-up adds its time (a datetime-local value, sent as RFC 3339). */
export function CallForm({ mode, agents, pending, onCall, onFollowup }: CallFormProps) {
  const contacts = useQuery(getContactsQueryOptions(ALL));
  const companies = useQuery(getCompaniesQueryOptions(ALL));
  const companyName = new Map((companies.data?.items ?? []).map((c) => [c.id, c.name]));
  const followup = mode === 'followup';
  const { register, handleSubmit, formState, setError, control } = useForm<FormValues>({
    defaultValues: { contactId: '', agentId: '', purpose: '', scheduledFor: '' },
  });
  const { field: scheduledField } = useController({ control, name: 'scheduledFor' });

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
      <Field label="Contact" hint={contacts.isError ? 'Contacts could not be loaded.' : undefined}>
        <select className={inputClass} {...register('contactId')}>
          <option value="">Select a contact</option>
          {contacts.data?.items.map((c) => (
            <option key={c.id} value={c.id}>
              {contactLabel(c, c.companyId ? companyName.get(c.companyId) : undefined)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Agent" hint={agents.length === 0 ? 'No active agents: add or activate one first.' : undefined}>
        <select className={inputClass} {...register('agentId')}>
          <option value="">Select an agent</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
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
