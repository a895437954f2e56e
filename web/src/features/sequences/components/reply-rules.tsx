import { useState, type SyntheticEvent } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';
import { isOneOf } from '@/lib/guards';
import { toast } from '@/stores/toasts';

import { useReplyRules } from '../api/get-reply-rules';
import { useCreateReplyRule, useDeleteReplyRule, useUpdateReplyRule } from '../api/reply-rules';
import { RULE_ACTIONS, RULE_TRIGGERS, type ReplyRule, type RuleAction, type RuleTrigger } from '../api/types';
import { NAME_MESSAGE } from './create-sequence-dialog';

const words = (s: string) => s.replaceAll('_', ' ');

/** 'Add Reply Rule' / 'Edit Reply Rule': what a reply must be, and what then happens. */
function ReplyRuleDialog({ rule, onClose }: { rule?: ReplyRule; onClose: () => void }) {
  const [name, setName] = useState(rule?.name ?? '');
  const savedTrigger = rule?.triggerType;
  const savedAction = rule?.action;
  const [triggerType, setTrigger] = useState<RuleTrigger>(isOneOf(RULE_TRIGGERS, savedTrigger) ? savedTrigger : 'any_reply');
  const [keywords, setKeywords] = useState((rule?.keywords ?? []).join(', '));
  const [action, setAction] = useState<RuleAction>(isOneOf(RULE_ACTIONS, savedAction) ? savedAction : 'stop_sequence');
  const [isActive, setActive] = useState(rule?.isActive ?? true);
  const [errors, setErrors] = useState<{ name?: string; keywords?: string }>({});
  const done = (r: ReplyRule) => {
    toast({ title: rule ? 'Reply Rule Saved' : 'Reply Rule Added', description: r.name, variant: 'success' });
    onClose();
  };
  const create = useCreateReplyRule({ onSuccess: done });
  const update = useUpdateReplyRule({ onSuccess: done });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const list = keywords
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const found = {
      ...(name.trim().length < 2 ? { name: NAME_MESSAGE } : {}),
      ...(triggerType === 'keyword' && list.length === 0 ? { keywords: 'A keyword rule needs at least one keyword' } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = { name: name.trim(), triggerType, keywords: list, action, isActive };
    if (rule) update.mutate({ id: rule.id, ...body });
    else create.mutate(body);
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={rule ? 'Edit Reply Rule' : 'Add Reply Rule'}>
      <form aria-label={rule ? 'Edit reply rule' : 'Add reply rule'} onSubmit={submit} noValidate className="space-y-3">
        <Field label="Rule Name" error={errors.name}>
          <input className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="When a reply is">
          <Select
            value={triggerType}
            onValueChange={(v) => {
              if (isOneOf(RULE_TRIGGERS, v)) setTrigger(v);
            }}
            options={RULE_TRIGGERS.map((t) => [t, words(t)] as const)}
          />
        </Field>
        {triggerType === 'keyword' ? (
          <Field label="Keywords" hint="Separated by commas, e.g. not interested, remove me" error={errors.keywords}>
            <input className={inputClass} value={keywords} onChange={(e) => setKeywords(e.target.value)} />
          </Field>
        ) : null}
        <Field label="Then">
          <Select
            value={action}
            onValueChange={(v) => {
              if (isOneOf(RULE_ACTIONS, v)) setAction(v);
            }}
            options={RULE_ACTIONS.map((a) => [a, words(a)] as const)}
          />
        </Field>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" role="switch" checked={isActive} onChange={(e) => setActive(e.target.checked)} />
          Rule active
        </label>
        <FormError error={create.error ?? update.error} />
        <FormActions
          onCancel={onClose}
          pending={create.isPending || update.isPending}
          label={rule ? 'Save Rule' : 'Add Rule'}
          pendingLabel="Saving..."
        />
      </form>
    </Dialog>
  );
}

/** The reply rules, with how often each fired: add, edit, delete (after asking). */
export function ReplyRules() {
  const rules = useReplyRules();
  const [editing, setEditing] = useState<ReplyRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReplyRule | null>(null);
  const remove = useDeleteReplyRule({
    onSuccess: () => {
      toast({ title: 'Reply Rule Deleted', variant: 'success' });
      setDeleting(null);
    },
  });
  let body;
  if (rules.isPending) body = <Skeleton rows={2} label="Loading reply rules" />;
  else if (rules.isError) body = <ErrorState title="Could not load the reply rules" error={rules.error} onRetry={() => rules.refetch()} />;
  else if (rules.data.length === 0) body = <EmptyState title="No reply rules yet">A rule stops or flags a sequence when a contact replies.</EmptyState>;
  else
    body = (
      <ul aria-label="Reply rules" className="space-y-2">
        {rules.data.map((r) => (
          <li key={r.id} aria-label={r.name} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
            <div>
              <span className="font-medium">{r.name}</span> · {words(r.triggerType)}
              {r.keywords.length > 0 ? ` (${r.keywords.join(', ')})` : ''} → {words(r.action)} · triggered {r.timesTriggered}{' '}
              {r.isActive ? (
                <span className="rounded bg-emerald-100 px-1.5 text-xs text-emerald-800">Active</span>
              ) : (
                <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-600">Off</span>
              )}
            </div>
            <div className="flex gap-1">
              <Button variant="secondary" size="sm" onClick={() => setEditing(r)}>
                Edit <span className="sr-only">{r.name}</span>
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setDeleting(r)}>
                Delete <span className="sr-only">{r.name}</span>
              </Button>
            </div>
          </li>
        ))}
      </ul>
    );
  return (
    <div className="space-y-3">
      <div className="flex justify-end">
        <Button onClick={() => setEditing('new')}>Add Reply Rule</Button>
      </div>
      {body}
      {editing ? <ReplyRuleDialog rule={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this reply rule?"
          description={`"${deleting.name}" no longer applies to replies.`}
          confirmLabel="Delete rule"
          danger
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error) : undefined}
          onConfirm={() => remove.mutate(deleting.id)}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}
