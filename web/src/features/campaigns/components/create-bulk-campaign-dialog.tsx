import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { ScoreBadge } from '@/components/ui/score-badge';
import { TabList } from '@/components/ui/tabs';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { useContacts } from '@/features/contacts/api/get-contacts';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useCreateBulkCampaign } from '../api/create-bulk-campaign';
import { useAudienceCount } from '../api/get-audience-count';
import { useTemplates } from '../api/get-templates';

export const BULK_REQUIRED = 'Please provide campaign name, subject, and select a template.';
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
];
const TARGET_STATES = ['TX', 'LA', 'AR', 'MS', 'NM', 'OK', 'AZ'];
/** Contacts listed for hand-picking; the filters reach everyone else. */
const PICK_LIMIT = 100;

type FormValues = {
  name: string;
  description: string;
  subject: string;
  templateId: string;
  fromEmail: string;
  scheduleAt: string;
  scoreMin: string;
  scoreMax: string;
  statuses: string[];
  states: string[];
};


const toScore = (v: string) => {
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : undefined;
};

/** 'Create Bulk Email Campaign' (seed 002 §2): details, target contacts, template preview. */
export function CreateBulkCampaignDialog({ onClose }: { onClose: () => void }) {
  const templates = useTemplates();
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [missing, setMissing] = useState(false);
  const { register, handleSubmit, control } = useForm<FormValues>({
    defaultValues: {
      name: '',
      description: '',
      subject: '',
      templateId: '',
      fromEmail: DEFAULT_FROM,
      scheduleAt: '',
      scoreMin: '70',
      scoreMax: '100',
      statuses: ['new_lead', 'email_sent'],
      states: [],
    },
  });
  const [scoreMin, scoreMax, statuses, states, templateId] = useWatch({
    control,
    name: ['scoreMin', 'scoreMax', 'statuses', 'states', 'templateId'],
  });
  const filters = { scoreMin: toScore(scoreMin), scoreMax: toScore(scoreMax), statuses, states };
  const audience = useAudienceCount(filters);
  const contacts = useContacts({ limit: PICK_LIMIT, offset: 0 });
  const template = templates.data?.find((t) => t.id === templateId);
  const create = useCreateBulkCampaign({
    onSuccess: (c) => {
      toast({ title: 'Campaign Created', description: `${c.name}: ${c.totalRecipients} recipients.`, variant: 'success' });
      onClose();
    },
  });

  const submit = handleSubmit((v) => {
    if (!v.name.trim() || !v.subject.trim() || !v.templateId) {
      setMissing(true);
      return;
    }
    setMissing(false);
    create.mutate({
      name: v.name.trim(),
      description: v.description.trim(),
      subject: v.subject.trim(),
      templateId: v.templateId,
      fromEmail: v.fromEmail.trim(),
      targetFilters: filters,
      ...(picked.size > 0 ? { selectedContactIds: [...picked] } : {}),
      ...(v.scheduleAt ? { scheduleAt: new Date(v.scheduleAt).toISOString() } : {}),
    });
  });

  const allIds = contacts.data?.items.map((c) => c.id) ?? [];
  const allPicked = allIds.length > 0 && allIds.every((id) => picked.has(id));
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
          tabs={[['details', 'Campaign Details'], ['targets', 'Target Contacts'], ['preview', 'Template Preview']]}
        />
          <Tabs.Content value="details" forceMount className="grid gap-3 data-[state=inactive]:hidden sm:grid-cols-2">
            <Field label="Campaign name">
              <input className={inputClass} {...register('name')} />
            </Field>
            <Field label="Subject">
              <input className={inputClass} {...register('subject')} />
            </Field>
            <Field label="Description" className="sm:col-span-2">
              <textarea rows={2} className={inputClass} {...register('description')} />
            </Field>
            <Field label="Template">
              <select className={inputClass} {...register('templateId')}>
                <option value="">Select a template</option>
                {templates.data?.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="From address">
              <input type="email" className={inputClass} {...register('fromEmail')} />
            </Field>
            <Field label="Schedule (optional)" hint="Leave empty to keep it a draft and send it yourself">
              <input type="datetime-local" className={inputClass} {...register('scheduleAt')} />
            </Field>
          </Tabs.Content>
          <Tabs.Content value="targets" forceMount className="space-y-3 data-[state=inactive]:hidden">
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
                : `${(audience.data ?? 0).toLocaleString()} contacts match these filters${picked.size > 0 ? `; ${picked.size} picked by hand` : ''}.`}
            </p>
            <div className="flex items-center justify-between">
              <span className="text-sm font-medium">Pick contacts (optional)</span>
              <Button
                type="button"
                variant="ghost"
                onClick={() => setPicked(allPicked ? new Set() : new Set(allIds))}
                disabled={allIds.length === 0}
              >
                {allPicked ? 'Deselect All' : 'Select All'}
              </Button>
            </div>
            <ul aria-label="Contacts to pick" className="h-48 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
              {contacts.data?.items.map((c) => (
                <li key={c.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" checked={picked.has(c.id)} onChange={() => toggle(c.id)} />
                    <span className="font-medium">
                      {c.firstName} {c.lastName}
                    </span>
                    <span className="truncate text-slate-500">{c.email ?? '—'}</span>
                    <ScoreBadge score={c.score} />
                  </label>
                </li>
              ))}
            </ul>
          </Tabs.Content>
          <Tabs.Content value="preview" forceMount className="data-[state=inactive]:hidden">
            {template ? (
              <div className="space-y-2">
                <p className="text-sm">
                  <span className="font-medium">{template.name}</span> — {template.subject}
                </p>
                {/* A sandbox with no permissions: the template's HTML is shown, never run. */}
                <iframe title="Template preview" sandbox="" srcDoc={template.body} className="h-64 w-full rounded-md border border-slate-200" />
              </div>
            ) : (
              <p className="text-sm text-slate-500">Please select a template to preview</p>
            )}
          </Tabs.Content>
        </Tabs.Root>
        {missing ? (
          <p role="alert" className="text-sm text-rose-700">
            {BULK_REQUIRED}
          </p>
        ) : null}
        <FormError error={create.error} />
        <FormActions onCancel={onClose} pending={create.isPending} label="Create Campaign" pendingLabel="Creating..." />
      </form>
    </Dialog>
  );
}
