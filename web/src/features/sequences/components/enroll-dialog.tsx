import { useState, type SyntheticEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { useContacts } from '@/features/contacts/api/get-contacts';
import { parseTargetStates, unknownStatesMessage } from '@/lib/rules';
import type { ContactStatus } from '@/types/api';

import { useEnrollContacts, type EnrollInput } from '../api/enrollments';
import { CONTACT_STATUSES, type EnrollResult, type TargetFilters } from '../api/types';

const PICK_PAGE = 10;
const SKIP_LABELS: Record<string, string> = {
  noEmail: 'no email',
  suppressed: 'suppressed',
  alreadyEnrolled: 'already enrolled',
  outsideRules: 'outside the enrollment rules',
  overDailyLimit: 'over the daily limit',
};

/** "Enrolled 3; remaining today 47", and who was skipped and why. */
export function resultText(r: EnrollResult): string {
  const skipped = Object.entries(r.skipped)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${SKIP_LABELS[k] ?? k.replaceAll('_', ' ')}`);
  return `Enrolled ${r.enrolled}; remaining today ${r.remainingToday}${skipped.length ? `. Skipped: ${skipped.join(', ')}` : ''}`;
}

/** The picked contacts: a search over all contacts, paged, with a checkbox each. */
function ContactPicker({ picked, onToggle }: { picked: Map<string, string>; onToggle: (id: string, label: string) => void }) {
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const contacts = useContacts({ q: q || undefined, limit: PICK_PAGE, offset });
  const items = contacts.data?.items ?? [];
  return (
    <div className="space-y-2">
      <Field label="Search contacts">
        <SearchInput
          className={inputClass}
          value={q}
          onSearch={(text) => {
            setQ(text);
            setOffset(0);
          }}
          placeholder="Name, email or title"
        />
      </Field>
      {contacts.isError ? <p role="alert" className="text-sm text-rose-700">Could not search the contacts.</p> : null}
      <ul aria-label="Contacts to enroll" className="max-h-64 space-y-1 overflow-y-auto">
        {items.map((c) => {
          const label = `${c.firstName} ${c.lastName}`.trim() + (c.email ? ` (${c.email})` : ' (no email)');
          return (
            <li key={c.id}>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={picked.has(c.id)} onChange={() => onToggle(c.id, label)} />
                {label}
              </label>
            </li>
          );
        })}
        {contacts.data && items.length === 0 ? <li className="text-sm text-slate-500">No contacts match.</li> : null}
      </ul>
      {contacts.data ? (
        <Pager offset={offset} count={items.length} total={contacts.data.total} exact={contacts.data.exact} pageSize={PICK_PAGE} onOffsetChange={setOffset} />
      ) : null}
      <p className="text-sm text-slate-600">{picked.size} selected</p>
    </div>
  );
}

/** 'Enroll Contacts': by the targeting filters or by picking contacts; the sequence's own rules and daily allowance apply. */
export function EnrollDialog({ sequenceId, onClose }: { sequenceId: string; onClose: () => void }) {
  const [mode, setMode] = useState<'filters' | 'pick'>('filters');
  const [scoreMin, setScoreMin] = useState('');
  const [scoreMax, setScoreMax] = useState('');
  const [statuses, setStatuses] = useState<ContactStatus[]>([]);
  const [states, setStates] = useState('');
  const [picked, setPicked] = useState(new Map<string, string>());
  const [problem, setProblem] = useState('');
  const enroll = useEnrollContacts({});
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    let body: EnrollInput;
    if (mode === 'pick') {
      if (picked.size === 0) return setProblem('Pick at least one contact');
      body = { contactIds: [...picked.keys()] };
    } else {
      const typed = parseTargetStates(states);
      if (typed.unknown.length > 0) return setProblem(unknownStatesMessage(typed.unknown));
      const filters: TargetFilters = {
        ...(scoreMin ? { scoreMin: Number(scoreMin) } : {}),
        ...(scoreMax ? { scoreMax: Number(scoreMax) } : {}),
        statuses,
        states: typed.states,
      };
      body = { targetFilters: filters };
    }
    setProblem('');
    enroll.mutate({ sequenceId, ...body });
  };
  const toggle = (id: string, label: string) =>
    setPicked((old) => {
      const next = new Map(old);
      if (next.has(id)) next.delete(id);
      else next.set(id, label);
      return next;
    });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Enroll Contacts" size="lg">
      {enroll.data ? (
        <div className="space-y-4">
          <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
            {resultText(enroll.data)}
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => enroll.reset()}>
              Enroll more
            </Button>
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form aria-label="Enroll contacts" onSubmit={submit} noValidate className="space-y-3">
          <fieldset className="flex gap-4 text-sm">
            <legend className="sr-only">Choose contacts</legend>
            <label className="flex items-center gap-1">
              <input type="radio" name="mode" checked={mode === 'filters'} onChange={() => setMode('filters')} />
              By filters
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name="mode" checked={mode === 'pick'} onChange={() => setMode('pick')} />
              Pick contacts
            </label>
          </fieldset>
          {mode === 'filters' ? (
            <div className="space-y-3">
              <div className="grid gap-3 sm:grid-cols-2">
                <Field label="Minimum score">
                  <input type="number" min={0} max={100} className={inputClass} value={scoreMin} onChange={(e) => setScoreMin(e.target.value)} />
                </Field>
                <Field label="Maximum score">
                  <input type="number" min={0} max={100} className={inputClass} value={scoreMax} onChange={(e) => setScoreMax(e.target.value)} />
                </Field>
              </div>
              <fieldset>
                <legend className="text-sm font-medium">Contact statuses (none: any)</legend>
                <div className="mt-1 grid grid-cols-2 gap-1 sm:grid-cols-3">
                  {CONTACT_STATUSES.map((s) => (
                    <label key={s} className="flex items-center gap-1 text-sm">
                      <input
                        type="checkbox"
                        checked={statuses.includes(s)}
                        onChange={(e) => setStatuses((old) => (e.target.checked ? [...old, s] : old.filter((x) => x !== s)))}
                      />
                      {s.replaceAll('_', ' ')}
                    </label>
                  ))}
                </div>
              </fieldset>
              <Field label="States" hint="Codes or names separated by commas, e.g. TX, Oklahoma; empty: any">
                <input className={inputClass} value={states} onChange={(e) => setStates(e.target.value)} />
              </Field>
            </div>
          ) : (
            <ContactPicker picked={picked} onToggle={toggle} />
          )}
          {problem ? (
            <p role="alert" className="text-sm text-rose-700">
              {problem}
            </p>
          ) : null}
          <FormError error={enroll.error} />
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={enroll.isPending}>
              {enroll.isPending ? 'Enrolling...' : 'Enroll'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
