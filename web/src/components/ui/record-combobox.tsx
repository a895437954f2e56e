import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';

import { useDebouncedValue } from '@/lib/use-debounced-value';

import { inputClass } from './field';

export type ComboOption = { id: string; label: string; detail?: string | null };

type Props = {
  /** From `Field`: the input's id, invalid state and description. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** The chosen record's id ('' for none) and its name as shown. */
  value: string;
  valueLabel: string;
  onChange: (option: ComboOption | null) => void;
  /** Records matching the text (the server searches; at most a page). */
  search: (text: string, signal: AbortSignal) => Promise<ComboOption[]>;
  /** The cache key of a search for this text (from the feature's keys). */
  queryKey: (text: string) => readonly unknown[];
  noneLabel: string;
  placeholder?: string;
};

/**
 * A searchable, server-backed choice of one record (WAI-ARIA combobox with a listbox): type to
 * search the whole table, arrows to move, Enter to choose, Escape to close. Unlike a native select
 * it never loads every record, so any of 100,000 contacts can be picked.
 */
export function RecordCombobox({ id, value, valueLabel, onChange, search, queryKey, noneLabel, placeholder, ...aria }: Props) {
  const listId = useId();
  const [text, setText] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const open = text !== null;
  const term = useDebouncedValue(text?.trim() ?? '', 200);
  const results = useQuery({
    queryKey: queryKey(term),
    queryFn: ({ signal }) => search(term, signal),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const options: ComboOption[] = [{ id: '', label: noneLabel }, ...(results.data ?? [])];

  const choose = (o: ComboOption) => {
    onChange(o.id === '' ? null : o);
    setText(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) {
        setText('');
        setActive(0);
        return;
      }
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      const o = options[active];
      if (o) choose(o);
    } else if (e.key === 'Escape' && open) {
      // Closes the list only, not the dialog around it.
      e.preventDefault();
      e.stopPropagation();
      setText(null);
    }
  };

  return (
    <div className="relative">
      <input
        id={id}
        {...aria}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
        autoComplete="off"
        className={inputClass}
        placeholder={placeholder}
        value={open ? text : value ? valueLabel : ''}
        onChange={(e) => {
          setText(e.target.value);
          setActive(e.target.value ? 1 : 0);
        }}
        onClick={() => {
          if (!open) {
            setText('');
            setActive(0);
          }
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setText(null)}
      />
      {open ? (
        <div className="absolute z-50 mt-1 w-full rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200">
          <ul id={listId} role="listbox" aria-label={`${noneLabel.replace(/^No /, '')} choices`} className="max-h-60 overflow-y-auto">
            {options.map((o, i) => (
              <li
                key={o.id || 'none'}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                // Chosen on mouse down, before the input's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(o);
                }}
                onMouseEnter={() => setActive(i)}
                className={`cursor-pointer px-3 py-1.5 ${i === active ? 'bg-indigo-50 text-indigo-900' : 'text-slate-800'} ${o.id === '' ? 'text-slate-500 italic' : ''}`}
              >
                {o.label}
                {o.detail ? <span className="ml-2 text-xs text-slate-500">{o.detail}</span> : null}
              </li>
            ))}
          </ul>
          <p role="status" className="px-3 text-xs text-slate-500 empty:hidden">
            {results.isError
              ? 'Search failed; try again.'
              : results.isFetching
                ? 'Searching…'
                : results.data?.length === 0
                  ? term
                    ? `No match for “${term}”`
                    : 'None yet'
                  : ''}
          </p>
        </div>
      ) : null}
    </div>
  );
}
