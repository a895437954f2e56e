import { useEffect, useState, type InputHTMLAttributes } from 'react';

/** How long typing must pause before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

type SearchInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  value: string;
  onSearch: (value: string) => void;
};

/** A search box that reports its text once typing pauses, not on every key. */
export function SearchInput({ value, onSearch, ...props }: SearchInputProps) {
  const [text, setText] = useState(value);
  const [sent, setSent] = useState(value);
  const [seen, setSeen] = useState(value);

  // A value changed from outside (e.g. Clear All) replaces the text; our own echo does not.
  if (value !== seen) {
    setSeen(value);
    if (value !== sent) setText(value);
  }

  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => {
      setSent(text);
      onSearch(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);

  return <input type="search" value={text} onChange={(e) => setText(e.target.value)} {...props} />;
}
