import { Pencil } from 'lucide-react';
import { useId, useState, type SubmitEvent, type KeyboardEvent, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { inputClass, labelIdFor } from '@/components/ui/field';
import { Select } from '@/components/ui/select';

type Input =
  | { kind: 'text' | 'email' | 'tel' | 'url'; maxLength?: number }
  | { kind: 'date' }
  | { kind: 'number'; min?: number; max?: number; step?: number }
  | { kind: 'select'; options: readonly (readonly [string, string])[] };

type EditableFieldProps = {
  label: string;
  /** The value as the input holds it ('' when empty). */
  value: string;
  /** How the value reads when not editing; '—' when empty. */
  display?: ReactNode;
  input: Input;
  /** Saves the new value; a rejection keeps the field open (the error comes in as `error`). */
  onSave: (value: string) => Promise<unknown>;
  /** The server's message for this field. */
  error?: string;
  /** Called when editing starts, e.g. to clear an earlier error. */
  onEdit?: () => void;
};

/**
 * One field of a record, shown as text with an Edit button; editing swaps in a small form
 * (Enter or Save saves, Escape or Cancel puts the value back).
 */
export function EditableField({ label, value, display, input, onSave, error, onEdit }: EditableFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const editing = draft !== null;

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (draft === null) return;
    if (draft === value) {
      setDraft(null);
      return;
    }
    setSaving(true);
    try {
      await onSave(draft);
      setDraft(null);
    } catch {
      // The page shows the toast and the field's error; the draft stays for another try.
    } finally {
      setSaving(false);
    }
  };

  if (!editing) {
    return (
      <div className="group flex items-start justify-between gap-2 py-2">
        <dt className="w-32 shrink-0 text-sm text-slate-500">{label}</dt>
        <dd className="min-w-0 flex-1 text-sm break-words text-slate-900">{display ?? (value || '—')}</dd>
        <dd className="shrink-0">
          <button
            type="button"
            aria-label={`Edit ${label}`}
            onClick={() => {
              onEdit?.();
              setDraft(value);
            }}
            className="rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <Pencil aria-hidden="true" className="size-3.5" />
          </button>
        </dd>
      </div>
    );
  }

  const common = {
    id,
    value: draft,
    autoFocus: true,
    disabled: saving,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setDraft(null);
      }
    },
  };
  return (
    <div className="py-2">
      <dt className="sr-only">{label}</dt>
      <dd>
        <form aria-label={`Edit ${label}`} onSubmit={(e) => void submit(e)} className="space-y-2">
          <label id={labelIdFor(id)} htmlFor={id} className="block text-sm font-medium text-slate-700">
            {label}
          </label>
          {input.kind === 'select' ? (
            <Select {...common} onValueChange={setDraft} options={input.options} />
          ) : input.kind === 'date' ? (
            <DatePicker {...common} onChange={setDraft} />
          ) : (
            <input
              {...common}
              className={inputClass}
              type={input.kind}
              {...(input.kind === 'number' ? { min: input.min, max: input.max, step: input.step ?? 1 } : {})}
              {...(input.kind !== 'number' && input.maxLength ? { maxLength: input.maxLength } : {})}
              onChange={(e) => setDraft(e.target.value)}
            />
          )}
          {error ? (
            <p id={`${id}-error`} className="text-sm text-rose-600">
              {error}
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={saving}>
              {saving ? 'Saving…' : 'Save'}
            </Button>
            <Button type="button" size="sm" variant="secondary" disabled={saving} onClick={() => setDraft(null)}>
              Cancel
            </Button>
          </div>
        </form>
      </dd>
    </div>
  );
}
