import * as Tabs from '@radix-ui/react-tabs';
import { useState, type ReactNode } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { DateTimePicker } from '@/components/ui/date-picker';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { ScoreBadge } from '@/components/ui/score-badge';
import { TabList } from '@/components/ui/tabs';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { ContactStatus, UsState } from '@/types/api';

import { useCreateBulkCampaign } from '../api/create-bulk-campaign';
import { useAudienceContacts } from '../api/get-audience-contacts';
import { useAudienceCount } from '../api/get-audience-count';
import type { EmailDraft } from '../api/types';
import { EmailComposer } from './email-composer';

export const BULK_REQUIRED = 'Please provide a campaign name, a subject and a message.';
export const NONE_PICKED = 'Pick at least one contact, or select all matching.';
export const DEFAULT_FROM = 'partnerships@prospector.app';
/** Contact statuses (seed 001 §3); none checked means any status. */
const TARGET_STATUSES = [
  'discovered',
  'verified',
  'contacted',
  'qualified',
  'new_lead',
  'email_sent',
  'meeting_scheduled',
  'responded',
  'hot',
  'warm',
  'cold',
] as const satisfies readonly ContactStatus[];
const TARGET_STATES = ['TX', 'LA', 'AR', 'MS', 'NM', 'OK', 'AZ'] as const satisfies readonly UsState[];
type FormValues = {
  name: string;
  description: string;
  fromEmail: string;
  scheduleAt: string;
  scoreMin: string;
  scoreMax: string;
  statuses: ContactStatus[];
  states: UsState[];
};


const toScore = (v: string) => {
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : undefined;
};

/** 'Create Bulk Email Campaign' (seed 002 §2): details, target contacts, template preview. */
export function CreateBulkCampaignDialog({
  onClose,
  selection,
}: {
  onClose: () => void;
  /** Contacts chosen on another screen (a selection bar): they are the audience, with no filters. */
  selection?: { contactIds: string[]; summary: ReactNode };
}) {
  const [draft, setDraft] = useState<EmailDraft>({ subject: '', body: '' });
  const [templateId, setTemplateId] = useState<string | null>(null);
  /** Everyone the filters match (the server applies them), or only the hand-picked contacts. */
  const [allMatching, setAllMatching] = useState(!selection);
  const [picked, setPicked] = useState<Set<string>>(() => new Set(selection?.contactIds));
  const [missing, setMissing] = useState<string | null>(null);
  const { register, handleSubmit, control } = useForm<FormValues>({
    defaultValues: {
      name: '',
      description: '',
      fromEmail: DEFAULT_FROM,
      scheduleAt: '',
      ...(selection
        ? { scoreMin: '', scoreMax: '', statuses: [], states: [] }
        : { scoreMin: '70', scoreMax: '100', statuses: ['new_lead', 'email_sent'], states: [] }),
    },
  });
  const { field: scheduleField } = useController({ control, name: 'scheduleAt' });
  const [scoreMin, scoreMax, statuses, states, fromEmail] = useWatch({
    control,
    name: ['scoreMin', 'scoreMax', 'statuses', 'states', 'fromEmail'],
  });
  const filters = { scoreMin: toScore(scoreMin), scoreMax: toScore(scoreMax), statuses, states };
  const audience = useAudienceCount(filters);
  const contacts = useAudienceContacts(filters);
  const listed = contacts.data?.pages.flatMap((p) => p.items) ?? [];
  const matching = audience.data ?? contacts.data?.pages[0]?.total ?? 0;
  const create = useCreateBulkCampaign({
    onSuccess: (c) => {
      toast({ title: 'Campaign Created', description: `${c.name}: ${c.totalRecipients} recipients.`, variant: 'success' });
      onClose();
    },
  });

  const submit = handleSubmit((v) => {
    if (!v.name.trim() || !draft.subject.trim() || !draft.body.trim()) {
      setMissing(BULK_REQUIRED);
      return;
    }
    if (!allMatching && picked.size === 0) {
      setMissing(NONE_PICKED);
      return;
    }
    setMissing(null);
    create.mutate({
      name: v.name.trim(),
      description: v.description.trim(),
      subject: draft.subject.trim(),
      body: draft.body,
      ...(templateId ? { templateId } : {}),
      fromEmail: v.fromEmail.trim(),
      targetFilters: filters,
      ...(allMatching ? {} : { selectedContactIds: [...picked] }),
      ...(v.scheduleAt ? { scheduleAt: new Date(v.scheduleAt).toISOString() } : {}),
    });
  });

  const toggle = (id: string) =>
    setPicked((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Create Bulk Email Campaign" size="lg">
      <form aria-label="Create bulk campaign" onSubmit={submit} noValidate className="space-y-4">
        <Tabs.Root defaultValue="details">
          <TabList
          label="Campaign sections"
          tabs={[['details', 'Campaign Details'], ['message', 'Message'], ['targets', 'Target Contacts']]}
        />
          <Tabs.Content value="details" forceMount className="grid gap-3 data-[state=inactive]:hidden sm:grid-cols-2">
            <Field label="Campaign name">
              <input className={inputClass} {...register('name')} />
            </Field>
            <Field label="Description" className="sm:col-span-2">
              <textarea rows={2} className={inputClass} {...register('description')} />
            </Field>
            <Field label="From address">
              <input type="email" className={inputClass} {...register('fromEmail')} />
            </Field>
            <Field label="Schedule (optional)" hint="Leave empty to keep it a draft and send it yourself">
              <DateTimePicker {...scheduleField} />
            </Field>
          </Tabs.Content>
          <Tabs.Content value="message" forceMount className="data-[state=inactive]:hidden">
            <EmailComposer value={draft} onChange={setDraft} audience={filters} fromEmail={fromEmail.trim() || undefined} onTemplate={setTemplateId} />
          </Tabs.Content>
          <Tabs.Content value="targets" forceMount className="space-y-3 data-[state=inactive]:hidden">
            {selection ? (
              <div aria-label="Recipients" className="rounded-md bg-slate-50 p-3 text-sm">
                {selection.summary}
              </div>
            ) : (
              <>
            <div className="grid gap-3 sm:grid-cols-2">
              <Field label="Minimum score">
                <input type="number" min={0} max={100} className={inputClass} {...register('scoreMin')} />
              </Field>
              <Field label="Maximum score">
                <input type="number" min={0} max={100} className={inputClass} {...register('scoreMax')} />
              </Field>
            </div>
            <fieldset>
              <legend className="text-sm font-medium">Statuses (none: any)</legend>
              <div className="mt-1 flex flex-wrap gap-3">
                {TARGET_STATUSES.map((s) => (
                  <label key={s} className="flex items-center gap-1.5 text-sm">
                    <input type="checkbox" value={s} {...register('statuses')} />
                    {s.replaceAll('_', ' ')}
                  </label>
                ))}
              </div>
            </fieldset>
            <fieldset>
              <legend className="text-sm font-medium">States (none: all)</legend>
              <div className="mt-1 flex flex-wrap gap-3">
                {TARGET_STATES.map((s) => (
                  <label key={s} className="flex items-center gap-1.5 text-sm">
                    <input type="checkbox" value={s} {...register('states')} />
                    {s}
                  </label>
                ))}
              </div>
            </fieldset>
            <p className="text-sm" data-testid="audience-count">
              {audience.isError
                ? errorMessage(audience.error)
                : allMatching
                  ? `${matching.toLocaleString()} contacts match these filters.`
                  : `${picked.size.toLocaleString()} of ${matching.toLocaleString()} matching contacts picked.`}
            </p>
            <label className="flex items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                checked={allMatching}
                onChange={(e) => {
                  setAllMatching(e.target.checked);
                  setPicked(new Set());
                }}
              />
              {`Select all ${matching.toLocaleString()} matching`}
            </label>
            <ul aria-label="Matching contacts" className="h-48 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
              {listed.map((c) => (
                <li key={c.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      aria-label={`Pick ${c.firstName} ${c.lastName}`}
                      checked={allMatching || picked.has(c.id)}
                      disabled={allMatching}
                      onChange={() => toggle(c.id)}
                    />
                    <span className="font-medium">
                      {c.firstName} {c.lastName}
                    </span>
                    <span className="truncate text-slate-500">{c.email ?? '—'}</span>
                    {c.companyName ? <span className="truncate text-slate-500">· {c.companyName}</span> : null}
                    <ScoreBadge score={c.score} />
                  </label>
                </li>
              ))}
            </ul>
            <div className="flex items-center justify-between text-sm text-slate-600">
              <span>{`Showing ${listed.length.toLocaleString()} of ${matching.toLocaleString()}`}</span>
              {contacts.hasNextPage ? (
                <Button type="button" variant="secondary" onClick={() => void contacts.fetchNextPage()} disabled={contacts.isFetchingNextPage}>
                  {contacts.isFetchingNextPage ? 'Loading…' : 'Load more contacts'}
                </Button>
              ) : null}
            </div>
              </>
            )}
          </Tabs.Content>
        </Tabs.Root>
        {missing ? (
          <p role="alert" className="text-sm text-rose-700">
            {missing}
          </p>
        ) : null}
        <FormError error={create.error} />
        <FormActions onCancel={onClose} pending={create.isPending} label="Create Campaign" pendingLabel="Creating..." />
      </form>
    </Dialog>
  );
}
