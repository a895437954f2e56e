import { useDeferredValue, useId, useRef, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useDeleteTemplate } from '../api/delete-template';
import { useAudienceContacts } from '../api/get-audience-contacts';
import { useMergeFields } from '../api/get-merge-fields';
import { useTemplates } from '../api/get-templates';
import { usePreviewEmail } from '../api/preview-email';
import { useSaveTemplate } from '../api/save-template';
import { useSendTestEmail } from '../api/send-test-email';
import type { EmailDraft, TargetFilters } from '../api/types';

type Props = {
  value: EmailDraft;
  onChange: (draft: EmailDraft) => void;
  /** Whose contacts the preview picker lists (a campaign's targeting); none: every contact with an email. */
  audience?: TargetFilters;
  /** The campaign's own from-address, for the preview's sender name. */
  fromEmail?: string;
  /** The template the draft started from, reported when one is chosen. */
  onTemplate?: (templateId: string | null) => void;
  /** Names a second composer on the same form ('Variant A'): a group of that name, "Variant A subject", "Insert field (Variant A)". */
  label?: string;
  /** Problems the surrounding form found, shown under the subject and the body. */
  errors?: { subject?: string; body?: string };
};

/** `{{key}}`, or `{{key|fallback}}` when a fallback is given. */
export const mergeTag = (key: string, fallback: string) => (fallback.trim() ? `{{${key}|${fallback.trim()}}}` : `{{${key}}}`);

/**
 * Writes an email: subject and body with merge fields from a menu (with a fallback for an empty
 * field), a start from a saved or built-in template, a preview rendered by the server for a chosen
 * contact, a test send to yourself, and saving the draft as a template.
 */
export function EmailComposer({ value, onChange, audience = {}, fromEmail, onTemplate, label, errors }: Props) {
  const subjectRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  // A field goes into whichever of subject and body had the focus last.
  const [target, setTarget] = useState<'subject' | 'body'>('body');
  const named = (base: string) => (label ? `${base} (${label})` : base);
  const fields = useMergeFields();
  const templates = useTemplates();
  const contacts = useAudienceContacts(audience);
  const [fallback, setFallback] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [templateName, setTemplateName] = useState('');
  const [contactId, setContactId] = useState('');
  const [testJob, setTestJob] = useState<{ jobId: string; to: string } | null>(null);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const ids = { fallback: useId() };

  const options = contacts.data?.pages.flatMap((p) => p.items) ?? [];
  const previewFor = contactId || options[0]?.id || '';
  const draft = useDeferredValue({ subject: value.subject, body: value.body, contactId: previewFor, ...(fromEmail ? { fromEmail } : {}) });
  const preview = usePreviewEmail(draft);
  const chosen = templates.data?.find((t) => t.id === templateId);

  const insert = (key: string) => {
    if (!key) return;
    const tag = mergeTag(key, fallback);
    const el = target === 'subject' ? subjectRef.current : bodyRef.current;
    const text = value[target];
    const at = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? at;
    onChange({ ...value, [target]: text.slice(0, at) + tag + text.slice(end) });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + tag.length, at + tag.length);
    });
  };

  const startFrom = (id: string) => {
    setTemplateId(id);
    onTemplate?.(id || null);
    const t = templates.data?.find((x) => x.id === id);
    if (t) {
      onChange({ subject: t.subject, body: t.body });
      if (!t.isBuiltin) setTemplateName(t.name);
    }
  };

  const save = useSaveTemplate({
    onSuccess: (t) => {
      setTemplateId(t.id);
      toast({ title: 'Template Saved', description: t.name, variant: 'success' });
    },
    onError: (e) => toast({ title: 'Could not save the template', description: errorMessage(e), variant: 'destructive' }),
  });
  const remove = useDeleteTemplate({
    onSuccess: () => {
      setTemplateId('');
      toast({ title: 'Template Deleted', variant: 'success' });
    },
    onError: (e) => toast({ title: 'Could not delete the template', description: errorMessage(e), variant: 'destructive' }),
  });
  const sendTest = useSendTestEmail({
    onSuccess: (r) => {
      setTestResult(null);
      setTestJob(r);
    },
    onError: (e) => setTestResult({ ok: false, text: `Test not sent: ${errorMessage(e)}` }),
  });
  useJobOutcome(testJob?.jobId, {
    onDone: (job) => {
      setTestResult(
        job.status === 'succeeded'
          ? { ok: true, text: `Test sent to ${testJob?.to ?? 'you'}.` }
          : { ok: false, text: `Test not sent: ${job.error ?? job.status}` },
      );
      setTestJob(null);
    },
    onError: (e) => {
      setTestResult({ ok: false, text: `Test not sent: ${errorMessage(e)}` });
      setTestJob(null);
    },
  });

  const complete = Boolean(value.subject.trim() && value.body.trim());
  const ownTemplate = chosen && !chosen.isBuiltin ? chosen : null;

  const Wrapper = label ? 'fieldset' : 'div';
  return (
    <Wrapper className={label ? 'space-y-3 rounded-md border border-slate-200 p-3' : 'space-y-3'}>
      {label ? <legend className="px-1 text-sm font-semibold">{label}</legend> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={named('Start from template')} hint="Fills the subject and body; edit them freely">
          <Select
            value={templateId}
            onValueChange={startFrom}
            options={[['', 'Blank message'], ...(templates.data ?? []).map((t) => [t.id, t.isBuiltin ? t.name : `${t.name} (saved)`] as const)]}
          />
        </Field>
        <Field label={label ? `${label} subject` : 'Subject'} error={errors?.subject}>
          <input
            ref={subjectRef}
            className={inputClass}
            value={value.subject}
            onFocus={() => setTarget('subject')}
            onChange={(e) => onChange({ ...value, subject: e.target.value })}
          />
        </Field>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <Field label={named('Insert field')}>
          <Select value="" placeholder="Choose a field…" onValueChange={insert} options={(fields.data ?? []).map((f) => [f.key, f.label] as const)} />
        </Field>
        <div>
          <label htmlFor={ids.fallback} className="block text-sm font-medium text-slate-900">
            {named('Fallback if empty')}
          </label>
          <input
            id={ids.fallback}
            className={inputClass}
            placeholder="e.g. there"
            value={fallback}
            onChange={(e) => setFallback(e.target.value)}
          />
        </div>
      </div>
      <Field
        label={label ? `${label} body` : 'Body'}
        error={errors?.body}
        hint="Plain text (blank lines make paragraphs) or HTML. {{firstName|there}} shows “there” when a contact has no first name.">
        <textarea
          ref={bodyRef}
          rows={8}
          className={`${inputClass} font-mono`}
          value={value.body}
          onFocus={() => setTarget('body')}
          onChange={(e) => onChange({ ...value, body: e.target.value })}
        />
      </Field>

      <div className="flex flex-wrap items-end gap-2">
        <Field label={named('Template name')}>
          <input className={inputClass} value={templateName} onChange={(e) => setTemplateName(e.target.value)} />
        </Field>
        <Button
          type="button"
          variant="secondary"
          disabled={!complete || !templateName.trim() || save.isPending}
          onClick={() => save.mutate({ name: templateName.trim(), subject: value.subject, body: value.body })}
        >
          Save as template
        </Button>
        {ownTemplate ? (
          <>
            <Button
              type="button"
              variant="secondary"
              disabled={!complete || save.isPending}
              onClick={() => save.mutate({ id: ownTemplate.id, name: templateName.trim() || ownTemplate.name, subject: value.subject, body: value.body })}
            >
              Update template
            </Button>
            <Button type="button" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(ownTemplate.id)}>
              Delete template
            </Button>
          </>
        ) : null}
      </div>

      <section aria-label={named('Email preview')} className="space-y-2 rounded-md border border-slate-200 p-3">
        <div className="flex flex-wrap items-end gap-2">
          <Field label={named('Preview for contact')}>
            <Select
              value={previewFor}
              onValueChange={setContactId}
              placeholder="No contact with an email"
              options={options.map((c) => [c.id, `${`${c.firstName} ${c.lastName}`.trim() || c.email} — ${c.email}`] as const)}
            />
          </Field>
          <Button
            type="button"
            variant="secondary"
            disabled={!complete || sendTest.isPending || Boolean(testJob)}
            onClick={() =>
              sendTest.mutate({ subject: value.subject, body: value.body, ...(previewFor ? { contactId: previewFor } : {}), ...(fromEmail ? { fromEmail } : {}) })
            }
          >
            {testJob ? 'Sending test…' : 'Send test to me'}
          </Button>
        </div>
        {testResult ? (
          <p role={testResult.ok ? 'status' : 'alert'} className={`text-sm ${testResult.ok ? 'text-emerald-700' : 'text-rose-700'}`}>
            {testResult.text}
          </p>
        ) : null}
        {!complete ? (
          <p className="text-sm text-slate-500">Write a subject and a body to see the preview.</p>
        ) : preview.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            Preview failed: {errorMessage(preview.error)}
          </p>
        ) : preview.data ? (
          <div className="space-y-1">
            <p className="text-sm">
              <span className="text-slate-500">To</span> {preview.data.to} · <span className="text-slate-500">Subject</span>{' '}
              <span data-testid="preview-subject" className="font-medium">
                {preview.data.subject}
              </span>
            </p>
            {/* A sandbox with no permissions: the message's HTML is shown, never run. */}
            <iframe title={named('Rendered email')} sandbox="" srcDoc={preview.data.html} className="h-64 w-full rounded-md border border-slate-200" />
          </div>
        ) : (
          <p className="text-sm text-slate-500">Rendering preview…</p>
        )}
      </section>
    </Wrapper>
  );
}
