import { useState, type SyntheticEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Select } from '@/components/ui/select';
import { parseTargetStates, unknownStatesMessage } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { ContactStatus } from '@/types/api';

import { useUpdateSequence } from '../api/change-sequence';
import { CONTACT_STATUSES, SEQUENCE_STATUSES, type Sequence, type SequenceStatus } from '../api/types';
import { DESCRIPTION_MESSAGE, NAME_MESSAGE } from './create-sequence-dialog';

const DAYS = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
] as const;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A sequence's settings: name, description, status, daily allowance, who it admits, when it sends. */
export function SequenceSettings({ sequence }: { sequence: Sequence }) {
  const rules = sequence.enrollmentRules;
  const win = sequence.sendingWindow ?? null;
  const [name, setName] = useState(sequence.name);
  const [description, setDescription] = useState(sequence.description);
  const [status, setStatus] = useState<SequenceStatus>(sequence.status);
  const [maxDaily, setMaxDaily] = useState(String(sequence.maxDailyEnrollments));
  const [scoreMin, setScoreMin] = useState(rules.scoreMin == null ? '' : String(rules.scoreMin));
  const [scoreMax, setScoreMax] = useState(rules.scoreMax == null ? '' : String(rules.scoreMax));
  const [statuses, setStatuses] = useState<ContactStatus[]>(rules.statuses ?? []);
  const [states, setStates] = useState((rules.states ?? []).join(', '));
  const [windowOn, setWindowOn] = useState(Boolean(win));
  const [days, setDays] = useState<string[]>(win?.days ?? ['tue', 'wed', 'thu']);
  const [start, setStart] = useState(win?.start ?? '10:00');
  const [end, setEnd] = useState(win?.end ?? '14:00');
  const [timezone, setTimezone] = useState(win?.timezone ?? browserZone());
  const [errors, setErrors] = useState<{ name?: string; description?: string; maxDaily?: string; states?: string }>({});
  const save = useUpdateSequence({ onSuccess: (s) => toast({ title: 'Sequence Saved', description: s.name, variant: 'success' }) });

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const max = Number(maxDaily);
    const typed = parseTargetStates(states);
    const found = {
      ...(name.trim().length < 2 ? { name: NAME_MESSAGE } : {}),
      ...(description.trim().length < 10 ? { description: DESCRIPTION_MESSAGE } : {}),
      ...(Number.isInteger(max) && max >= 1 ? {} : { maxDaily: 'Max daily enrollments must be at least 1' }),
      ...(typed.unknown.length > 0 ? { states: unknownStatesMessage(typed.unknown) } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({
      id: sequence.id,
      name: name.trim(),
      description: description.trim(),
      status,
      maxDailyEnrollments: max,
      enrollmentRules: {
        ...(scoreMin ? { scoreMin: Number(scoreMin) } : {}),
        ...(scoreMax ? { scoreMax: Number(scoreMax) } : {}),
        statuses,
        states: typed.states,
      },
      sendingWindow: windowOn ? { days, start, end, timezone } : null,
    });
  };
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));

  return (
    <form aria-label="Sequence settings" onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Sequence Name" error={errors.name}>
          <input className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Sequence status">
          <Select value={status} onValueChange={(v) => setStatus(v as SequenceStatus)} options={SEQUENCE_STATUSES.map((s) => [s, s] as const)} />
        </Field>
      </div>
      <Field label="Description" error={errors.description}>
        <textarea rows={2} className={inputClass} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <Field label="Max daily enrollments" error={errors.maxDaily} className="sm:w-1/2">
        <input type="number" min={1} className={inputClass} value={maxDaily} onChange={(e) => setMaxDaily(e.target.value)} />
      </Field>
      <fieldset className="space-y-2 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold">Enrollment rules (who may be enrolled)</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Rule: minimum score">
            <input type="number" min={0} max={100} className={inputClass} value={scoreMin} onChange={(e) => setScoreMin(e.target.value)} />
          </Field>
          <Field label="Rule: maximum score">
            <input type="number" min={0} max={100} className={inputClass} value={scoreMax} onChange={(e) => setScoreMax(e.target.value)} />
          </Field>
          <Field label="Rule: states" hint="e.g. TX, Oklahoma; empty: any" error={errors.states}>
            <input className={inputClass} value={states} onChange={(e) => setStates(e.target.value)} />
          </Field>
        </div>
        <div className="grid grid-cols-2 gap-1 sm:grid-cols-4" role="group" aria-label="Rule: contact statuses">
          {CONTACT_STATUSES.map((s) => (
            <label key={s} className="flex items-center gap-1 text-sm">
              <input type="checkbox" checked={statuses.includes(s)} onChange={(e) => setStatuses(toggle(statuses, s, e.target.checked))} />
              {s.replaceAll('_', ' ')}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="space-y-2 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold">Sending window</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" role="switch" checked={windowOn} onChange={(e) => setWindowOn(e.target.checked)} />
          Send only on these days and hours (the recipient&apos;s time zone when known)
        </label>
        {windowOn ? (
          <>
            <div className="flex flex-wrap gap-3" role="group" aria-label="Sending days">
              {DAYS.map(([d, label]) => (
                <label key={d} className="flex items-center gap-1 text-sm">
                  <input type="checkbox" checked={days.includes(d)} onChange={(e) => setDays(toggle(days, d, e.target.checked))} />
                  {label}
                </label>
              ))}
            </div>
            <div className="grid gap-3 sm:grid-cols-3">
              <Field label="From">
                <input type="time" className={inputClass} value={start} onChange={(e) => setStart(e.target.value)} />
              </Field>
              <Field label="Until">
                <input type="time" className={inputClass} value={end} onChange={(e) => setEnd(e.target.value)} />
              </Field>
              <Field label="Sender time zone">
                <input className={inputClass} value={timezone} onChange={(e) => setTimezone(e.target.value)} />
              </Field>
            </div>
          </>
        ) : null}
      </fieldset>
      <FormError error={save.error} />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save Settings'}
      </Button>
    </form>
  );
}
