import * as Popover from '@radix-ui/react-popover';
import { CalendarDays, X } from 'lucide-react';
import { useId, useState, type CSSProperties, type KeyboardEvent, type Ref } from 'react';
import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';

import { dateOfDay, dayInputPattern, dayOf, formatDayInput, parseDayInput } from '@/lib/format';

import { inputClass, labelIdFor } from './field';

type DatePickerProps = {
  /** From `Field`: the text field's id, invalid state and description. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
  /** `YYYY-MM-DD`, or '' for no day. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  ref?: Ref<HTMLInputElement>;
  /** The earliest and latest days (`YYYY-MM-DD`) the calendar offers. */
  min?: string;
  max?: string;
  disabled?: boolean;
  autoFocus?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  /** What the clear button does; by default it empties the value. */
  onClear?: () => void;
  className?: string;
};

// The calendar in the app's indigo, with cells denser than the library's 44 px.
const calendarTheme = {
  '--rdp-accent-color': 'var(--color-indigo-600, #4f46e5)',
  '--rdp-accent-background-color': 'var(--color-indigo-50, #eef2ff)',
  '--rdp-day-height': '2.25rem',
  '--rdp-day-width': '2.25rem',
  '--rdp-day_button-height': '2.125rem',
  '--rdp-day_button-width': '2.125rem',
  '--rdp-nav-height': '2.25rem',
  fontSize: '0.875rem',
} as CSSProperties;

/** With no day chosen the calendar opens on this month, or on the nearest one it allows. */
const monthToOpen = (first: Date | null, last: Date | null): Date => {
  const now = new Date();
  if (first && first > now) return first;
  if (last && last < now) return last;
  return now;
};

const iconButton =
  'rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50';

/**
 * A day: a text field that takes the day typed in the browser's locale (12/03/2026) or as ISO
 * (2026-12-03), and a button opening a calendar (arrow keys move by day, Page Up/Down by month,
 * Enter picks, Escape closes and gives focus back). The value stays `YYYY-MM-DD`, as a native
 * date input's, so forms and the api do not change; '' while the text is not a day.
 */
export function DatePicker({
  id,
  value,
  onChange,
  onBlur,
  name,
  ref,
  min,
  max,
  disabled,
  autoFocus,
  onKeyDown,
  onClear,
  className = '',
  'aria-invalid': invalid,
  'aria-describedby': describedBy,
  'aria-required': required,
}: DatePickerProps) {
  const messageId = useId();
  const [open, setOpen] = useState(false);
  // What is being typed and the value it gave (flagged once left unread); a value set from
  // outside (a reset, a saved view) replaces it.
  const [draft, setDraft] = useState<{ text: string; value: string; unreadable: boolean } | null>(null);
  const typing = draft && draft.value === value ? draft : null;
  const text = typing ? typing.text : formatDayInput(value);
  const unreadable = typing?.unreadable ?? false;
  const pattern = dayInputPattern();
  const selected = dateOfDay(value) ?? undefined;
  const first = min ? dateOfDay(min) : null;
  const last = max ? dateOfDay(max) : null;
  const labelId = id ? labelIdFor(id) : undefined;

  const commit = (next: string) => {
    if (next !== value) onChange(next);
  };
  const type = (typed: string) => {
    const next = typed.trim() === '' ? '' : (parseDayInput(typed) ?? '');
    setDraft({ text: typed, value: next, unreadable: false });
    commit(next);
  };
  const leave = () => {
    // A day that was read is shown the locale's way; text that is not a day stays, flagged.
    if (typing) setDraft(typing.value !== '' || typing.text.trim() === '' ? null : { ...typing, unreadable: true });
    onBlur?.();
  };
  const pick = (day: Date) => {
    setDraft(null);
    commit(dayOf(day));
    setOpen(false);
  };
  const clear = () => {
    setDraft(null);
    if (onClear) onClear();
    else commit('');
  };

  return (
    <>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Anchor asChild>
          <div className={`relative ${className}`}>
            <input
              id={id}
              ref={ref}
              name={name}
              type="text"
              autoComplete="off"
              value={text}
              placeholder={pattern}
              disabled={disabled}
              autoFocus={autoFocus}
              // Not enforced on a text field: kept so the range stays readable in the page, as on
              // the native date input this replaces; the calendar offers only days within it.
              min={min}
              max={max}
              aria-invalid={invalid || unreadable || undefined}
              aria-describedby={[describedBy, unreadable ? messageId : null].filter(Boolean).join(' ') || undefined}
              aria-required={required}
              onChange={(e) => type(e.target.value)}
              onBlur={leave}
              onKeyDown={onKeyDown}
              className={`${inputClass} pr-16`}
            />
            <div className="absolute inset-y-0 right-0 flex items-center gap-0.5 pr-1.5">
              {text !== '' ? (
                <button type="button" aria-label="Clear date" aria-describedby={labelId} disabled={disabled} onClick={clear} className={iconButton}>
                  <X aria-hidden="true" className="size-4" />
                </button>
              ) : null}
              <Popover.Trigger asChild>
                <button type="button" aria-label="Choose date" aria-describedby={labelId} disabled={disabled} className={iconButton}>
                  <CalendarDays aria-hidden="true" className="size-4" />
                </button>
              </Popover.Trigger>
            </div>
          </div>
        </Popover.Anchor>
        <Popover.Portal>
          <Popover.Content
            align="end"
            sideOffset={4}
            aria-label="Calendar"
            // The calendar focuses the chosen day (or today) itself; Radix would focus "previous month".
            onOpenAutoFocus={(e) => e.preventDefault()}
            className="z-[60] rounded-lg bg-white p-3 text-slate-900 shadow-lg ring-1 ring-slate-200"
          >
            <DayPicker
              mode="single"
              required
              autoFocus
              selected={selected}
              onSelect={pick}
              defaultMonth={selected ?? monthToOpen(first, last)}
              startMonth={first ?? undefined}
              endMonth={last ?? undefined}
              disabled={[...(first ? [{ before: first }] : []), ...(last ? [{ after: last }] : [])]}
              style={calendarTheme}
            />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {unreadable ? (
        <p id={messageId} className="mt-1 text-sm text-rose-600">
          Enter a date as {pattern} or YYYY-MM-DD.
        </p>
      ) : null}
    </>
  );
}

type DateTimePickerProps = Omit<DatePickerProps, 'value' | 'onChange' | 'min' | 'max' | 'onClear' | 'onKeyDown'> & {
  /** A datetime-local value, `YYYY-MM-DDTHH:mm` in the browser's time zone, or '' for none. */
  value: string;
  onChange: (value: string) => void;
};

type Parts = { day: string; time: string };
const splitDateTime = (value: string): Parts => {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return m ? { day: m[1] ?? '', time: m[2] ?? '' } : { day: '', time: '' };
};
const joinDateTime = ({ day, time }: Parts) => (day && time ? `${day}T${time}` : '');

/**
 * A day and a time of day (the browser's own time field, in the user's 12 or 24 hour clock). The
 * value is what a native datetime-local input gives, `YYYY-MM-DDTHH:mm` in the browser's time
 * zone, and '' until both halves are filled in, so the forms convert it exactly as before.
 */
export function DateTimePicker({ value, onChange, onBlur, id, disabled, className = '', ...rest }: DateTimePickerProps) {
  const hintId = useId();
  // A half-filled value (a day, no time yet) lives here; a value set from outside replaces it.
  const [parts, setParts] = useState<Parts>(() => splitDateTime(value));
  const shown = joinDateTime(parts) === value ? parts : splitDateTime(value);
  const half = (shown.day === '') !== (shown.time === '');
  const set = (next: Parts) => {
    setParts(next);
    const joined = joinDateTime(next);
    if (joined !== value) onChange(joined);
  };
  const described = (...ids: (string | undefined)[]) => [...ids, rest['aria-describedby'], half ? hintId : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <div className={className}>
      <div className="flex flex-wrap gap-2">
        <DatePicker
          {...rest}
          aria-describedby={described()}
          id={id}
          disabled={disabled}
          className="min-w-40 flex-1"
          value={shown.day}
          onChange={(day) => set({ ...shown, day })}
          onBlur={onBlur}
          onClear={() => set({ day: '', time: '' })}
        />
        <input
          type="time"
          aria-label="Time"
          aria-describedby={described(id ? labelIdFor(id) : undefined)}
          aria-invalid={rest['aria-invalid']}
          disabled={disabled}
          value={shown.time}
          onChange={(e) => set({ ...shown, time: e.target.value })}
          onBlur={onBlur}
          className={`${inputClass} w-36`}
        />
      </div>
      {half ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {shown.day ? 'Add a time as well.' : 'Add a date as well.'}
        </p>
      ) : null}
    </div>
  );
}
