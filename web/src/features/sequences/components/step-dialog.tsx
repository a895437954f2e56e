import { useState, type SyntheticEvent } from 'react';

import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { Select } from '@/components/ui/select';
import { useTemplates } from '@/features/campaigns/api/get-templates';
import type { EmailDraft } from '@/features/campaigns/api/types';
import { EmailComposer } from '@/features/campaigns/components/email-composer';
import { delayHint, parseDelay } from '@/lib/rules';
import { toast } from '@/stores/toasts';

import { useCreateStep, useUpdateStep } from '../api/change-sequence';
import type { SequenceStep, StepType } from '../api/types';
import { NAME_MESSAGE } from './create-sequence-dialog';

/** What the dialog offers; `ab_email` is an email step with A and B content, `ab_test` an old split-only step. */
type Kind = 'email' | 'ab_email' | 'delay' | 'condition' | 'action' | 'ab_test';
const KINDS: [Kind, string][] = [
  ['email', 'Email'],
  ['ab_email', 'A/B test email'],
  ['delay', 'Delay'],
  ['condition', 'Condition'],
  ['action', 'Action'],
];
const CHECKS = [
  ['opened', 'opened an email'],
  ['clicked', 'clicked a link'],
  ['replied', 'replied'],
  ['scoreAtLeast', 'a score of at least'],
] as const;

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const contentOf = (v: unknown): EmailDraft => {
  const o = (v ?? {}) as Record<string, unknown>;
  return { subject: text(o.subject), body: text(o.body) };
};

/** The form's state, read from a step being edited. */
function initial(step?: SequenceStep) {
  const c = step?.config ?? {};
  const variants = (c.variants ?? null) as Record<string, unknown> | null;
  const kind: Kind = !step ? 'email' : step.type === 'email' && variants ? 'ab_email' : step.type;
  return {
    kind,
    name: step?.name ?? '',
    delay: String(step?.delayMinutes ?? 0),
    templateId: text(c.templateId),
    email: contentOf(c),
    a: contentOf(variants?.A),
    b: contentOf(variants?.B),
    check: (text(c.check) || 'opened') as (typeof CHECKS)[number][0],
    minScore: String(typeof c.value === 'number' ? c.value : 50),
    addTag: text(c.addTag),
  };
}
type State = ReturnType<typeof initial>;
type Errors = Partial<Record<'name' | 'email' | 'a' | 'b' | 'minScore' | 'addTag', string>>;

/** The step's type and config as the server's step runner reads them, or the first problem. */
function toStep(v: State): { errors: Errors; type: StepType; config: Record<string, unknown> } {
  const errors: Errors = {};
  if (v.name.trim().length < 2) errors.name = NAME_MESSAGE;
  const complete = (c: EmailDraft) => c.subject.trim() !== '' && c.body.trim() !== '';
  if (v.kind === 'email') {
    const partial = (v.email.subject.trim() !== '') !== (v.email.body.trim() !== '');
    if (partial) errors.email = 'Write both a subject and a body, or neither to use the template';
    const own = complete(v.email) ? { subject: v.email.subject, body: v.email.body, format: 'text' } : {};
    return { errors, type: 'email', config: { ...(v.templateId ? { templateId: v.templateId } : {}), ...own } };
  }
  if (v.kind === 'ab_email') {
    if (!complete(v.a)) errors.a = 'Variant A needs a subject and a body';
    if (!complete(v.b)) errors.b = 'Variant B needs a subject and a body';
    return { errors, type: 'email', config: { format: 'text', variants: { A: v.a, B: v.b } } };
  }
  if (v.kind === 'condition') {
    const value = Number(v.minScore);
    if (v.check === 'scoreAtLeast' && !(Number.isInteger(value) && value >= 0 && value <= 100))
      errors.minScore = 'A score from 0 to 100';
    return { errors, type: 'condition', config: v.check === 'scoreAtLeast' ? { check: v.check, value } : { check: v.check } };
  }
  if (v.kind === 'action') {
    if (!v.addTag.trim()) errors.addTag = 'Name the tag to add';
    return { errors, type: 'action', config: { addTag: v.addTag.trim() } };
  }
  return { errors, type: v.kind, config: {} };
}

type Props = { sequenceId: string; step?: SequenceStep; onClose: () => void };

/** 'Add Sequence Step' / 'Edit Sequence Step' (seed 002 §2): email, A/B email, delay, condition, action. */
export function StepDialog({ sequenceId, step, onClose }: Props) {
  const templates = useTemplates();
  const [v, setV] = useState(() => initial(step));
  const [errors, setErrors] = useState<Errors>({});
  const set = (patch: Partial<State>) => setV((old) => ({ ...old, ...patch }));
  const done = (s: SequenceStep) => {
    toast({ title: step ? 'Step Saved' : 'Step Added', description: s.name, variant: 'success' });
    onClose();
  };
  const add = useCreateStep({ onSuccess: done });
  const update = useUpdateStep({ onSuccess: done });
  const pending = add.isPending || update.isPending;
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const { errors: found, type, config } = toStep(v);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = { name: v.name.trim(), type, delayMinutes: parseDelay(v.delay), config };
    if (step) update.mutate({ sequenceId, stepId: step.id, ...body });
    else add.mutate({ sequenceId, ...body });
  };
  const kinds = step?.type === 'ab_test' ? [...KINDS, ['ab_test', 'A/B split (assigns the variant)'] as [Kind, string]] : KINDS;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={step ? 'Edit Sequence Step' : 'Add Sequence Step'} size="lg">
      <form aria-label={step ? 'Edit step' : 'Add step'} onSubmit={submit} noValidate className="space-y-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Step Type">
            <Select value={v.kind} onValueChange={(kind) => set({ kind: kind as Kind })} options={kinds} />
          </Field>
          <Field label="Step Name" error={errors.name}>
            <input className={inputClass} value={v.name} onChange={(e) => set({ name: e.target.value })} />
          </Field>
        </div>
        <Field label="Delay Before This Step (minutes)" hint={delayHint(parseDelay(v.delay))}>
          <input inputMode="numeric" className={inputClass} value={v.delay} onChange={(e) => set({ delay: e.target.value })} />
        </Field>
        {v.kind === 'email' ? (
          <>
            <Field label="Email template" hint="Used when the subject and body below are empty.">
              <Select
                value={v.templateId}
                onValueChange={(templateId) => set({ templateId })}
                options={[['', 'Built-in Follow-up (default)'], ...(templates.data ?? []).map((t) => [t.id, t.name] as const)]}
              />
            </Field>
            <EmailComposer value={v.email} onChange={(email) => set({ email })} errors={{ body: errors.email }} />
          </>
        ) : null}
        {v.kind === 'ab_email' ? (
          <div className="space-y-3">
            <EmailComposer label="Variant A" value={v.a} onChange={(a) => set({ a })} errors={{ body: errors.a }} />
            <EmailComposer label="Variant B" value={v.b} onChange={(b) => set({ b })} errors={{ body: errors.b }} />
          </div>
        ) : null}
        {v.kind === 'condition' ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Continue when the contact has">
              <Select value={v.check} onValueChange={(check) => set({ check: check as State['check'] })} options={CHECKS} />
            </Field>
            {v.check === 'scoreAtLeast' ? (
              <Field label="Minimum score" error={errors.minScore}>
                <input type="number" min={0} max={100} className={inputClass} value={v.minScore} onChange={(e) => set({ minScore: e.target.value })} />
              </Field>
            ) : null}
          </div>
        ) : null}
        {v.kind === 'action' ? (
          <Field label="Tag to add" error={errors.addTag}>
            <input className={inputClass} value={v.addTag} onChange={(e) => set({ addTag: e.target.value })} />
          </Field>
        ) : null}
        <FormError error={add.error ?? update.error} />
        <FormActions
          onCancel={onClose}
          pending={pending}
          label={step ? 'Save Step' : 'Add Step'}
          pendingLabel={step ? 'Saving...' : 'Adding...'}
        />
      </form>
    </Dialog>
  );
}
