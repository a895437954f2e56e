import * as RadixSelect from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';
import type { KeyboardEvent, Ref } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

import { inputClass } from './field';

/** One choice: its value and what the user reads. */
export type SelectOption = { value: string; label: string; disabled?: boolean };
/** Choices as objects, or as `[value, label]` pairs (the app's option tables). */
export type SelectOptions = readonly SelectOption[] | readonly (readonly [string, string])[];

type SelectProps = {
  /** From `Field`: the trigger's id (its `<label for>`), invalid state and description. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** The name when there is no visible label ("Status of INV-2026-0001"). */
  'aria-label'?: string;
  /** The id of the element that names it (a label that is not a `<label>`). */
  'aria-labelledby'?: string;
  'data-testid'?: string;
  value: string;
  onValueChange?: (value: string) => void;
  /** The same as `onValueChange`, so a react-hook-form field spreads onto it (`{...field}`). */
  onChange?: (value: string) => void;
  options: SelectOptions;
  /** Shown while no option is chosen. */
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
  /** The form field name (Radix keeps a hidden native select in a form for submission). */
  name?: string;
  onBlur?: () => void;
  /** On the trigger, e.g. Escape to leave an in-place edit (the open list handles its own keys). */
  onKeyDown?: (event: KeyboardEvent<HTMLButtonElement>) => void;
  autoFocus?: boolean;
  ref?: Ref<HTMLButtonElement>;
  /** `sm` for a select inside a table row or a toolbar. */
  size?: 'sm' | 'md';
  className?: string;
};

/**
 * Radix refuses '' as an item's value (it means "no value" to it), yet our lists use '' for "All"
 * or "None"; such an option travels under this stand-in and comes back out as ''.
 */
const EMPTY = '\u0000empty';
const inner = (v: string) => (v === '' ? EMPTY : v);
const outer = (v: string) => (v === EMPTY ? '' : v);

const normalise = (options: SelectOptions): SelectOption[] =>
  options.map((o) => (Array.isArray(o) ? { value: o[0] as string, label: o[1] as string } : (o as SelectOption)));

const sizes = {
  md: inputClass,
  sm: 'block w-full rounded-md border-0 bg-white py-1 pl-2 text-xs text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none',
};

/**
 * One accessible select (issue 23): a button with `role="combobox"` that opens a listbox. Enter,
 * Space or the arrows open it, the arrows move, typing jumps to a matching option, Enter chooses and
 * Escape closes; inside `Field` the label names it. For long or server-backed lists use
 * `RecordCombobox`, which searches.
 */
export function Select({
  value,
  onValueChange,
  onChange,
  options,
  placeholder = 'Choose…',
  disabled,
  required,
  name,
  onBlur,
  onKeyDown,
  autoFocus,
  ref,
  size = 'md',
  className = '',
  ...aria
}: SelectProps) {
  const items = normalise(options);
  const known = items.some((o) => o.value === value);
  return (
    <RadixSelect.Root
      // An unknown value (a list still loading) shows the placeholder instead of a blank.
      value={known ? inner(value) : ''}
      onValueChange={(v) => (onValueChange ?? onChange)?.(outer(v))}
      disabled={disabled}
      required={required}
      name={name}
      onOpenChange={(open) => {
        if (!open) onBlur?.();
      }}
    >
      <RadixSelect.Trigger
        ref={ref}
        onKeyDown={onKeyDown}
        autoFocus={autoFocus}
        {...aria}
        className={`${sizes[size]} flex min-w-0 items-center justify-between gap-2 pr-2 text-left disabled:cursor-not-allowed disabled:opacity-60 data-[placeholder]:text-slate-500 ${className}`}
      >
        <span className="truncate">
          <RadixSelect.Value placeholder={placeholder} />
        </span>
        <RadixSelect.Icon className="shrink-0 text-slate-500">
          <ChevronDown aria-hidden className="size-4" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          position="popper"
          sideOffset={4}
          // As wide as the trigger at least, never wider than the screen.
          className="z-50 max-h-[min(20rem,var(--radix-select-content-available-height))] min-w-[var(--radix-select-trigger-width)] max-w-[calc(100vw-1rem)] overflow-hidden rounded-md bg-white text-sm shadow-lg ring-1 ring-slate-200"
        >
          <RadixSelect.Viewport className="p-1">
            {items.map((o) => (
              <RadixSelect.Item
                key={o.value}
                value={inner(o.value)}
                disabled={o.disabled}
                className="relative flex cursor-default items-center rounded py-1.5 pr-2 pl-7 text-slate-900 outline-none select-none data-[disabled]:text-slate-400 data-[highlighted]:bg-indigo-600 data-[highlighted]:text-white"
              >
                <RadixSelect.ItemIndicator className="absolute left-2 inline-flex items-center">
                  <Check aria-hidden className="size-4" />
                </RadixSelect.ItemIndicator>
                <RadixSelect.ItemText>{o.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}

type FormSelectProps<T extends FieldValues, C, O extends FieldValues> = Omit<SelectProps, 'value' | 'onValueChange' | 'onBlur' | 'ref' | 'name'> & {
  /** The form's `control` (with its resolver's context and output types, whatever they are). */
  control: Control<T, C, O>;
  name: Path<T>;
};

/** A `Select` bound to a react-hook-form field (what `register` does for a native select). */
export function FormSelect<T extends FieldValues, C = unknown, O extends FieldValues = T>({ control, name, ...props }: FormSelectProps<T, C, O>) {
  const { field } = useController<T, Path<T>, O>({ control: control as Control<T, unknown, O>, name });
  // The field's value is a string for every select of ours; the spread keeps refs out of render.
  return <Select {...props} {...(field as unknown as Pick<SelectProps, 'value' | 'onChange' | 'onBlur' | 'name' | 'ref'>)} />;
}
