import { cloneElement, useId, type ReactElement } from 'react';

export const inputClass =
  'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none aria-[invalid=true]:ring-rose-500';

type FieldProps = {
  label: string;
  /** The message shown under the control; marks it invalid. */
  error?: string;
  hint?: string;
  /** One input, select or textarea; it gets the id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  className?: string;
};

/**
 * The id of the label naming the control with id `id` (Field's and EditableField's): composite
 * controls (date picker, file drop) point their extra buttons' descriptions at it, so a calendar
 * button reads "Choose date, Due date" without taking the label's name from the text field.
 */
export const labelIdFor = (id: string) => `${id}-label`;

/** A labelled form control with its hint and error wired for screen readers. */
export function Field({ label, error, hint, children, className = '' }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label id={labelIdFor(id)} htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-rose-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
