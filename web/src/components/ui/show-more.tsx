import type { RefObject } from 'react';

import { errorMessage } from '@/lib/api-client';
import type { ColumnPages } from '@/lib/use-column-pages';

import { Button } from './button';

type Props = {
  /** The column's name: the button reads "Show more <label>". */
  label: string;
  pages: Pick<ColumnPages<unknown>, 'hasMore' | 'isLoadingMore' | 'error' | 'showMore'>;
  /** Where focus goes when the last page is in and the button goes away (the column's list). */
  focusAfterLast: RefObject<HTMLElement | null>;
};

/**
 * A board column's "Show more": the next page of cards, "Loading…" meanwhile, gone once every card
 * is shown. It stays focusable while loading (aria-disabled, not disabled), so a keyboard user
 * keeps their place.
 */
export function ShowMore({ label, pages, focusAfterLast }: Props) {
  if (!pages.hasMore) return null;
  const loading = pages.isLoadingMore;
  const more = async (button: HTMLButtonElement) => {
    if (loading) return;
    if (await pages.showMore()) return;
    const focused = document.activeElement;
    if (focused === button || focused === document.body || focused === null) focusAfterLast.current?.focus();
  };
  return (
    <div className="mt-2 space-y-1">
      {pages.error ? (
        <p role="alert" className="text-xs text-rose-700">
          Failed to load more: {errorMessage(pages.error)}
        </p>
      ) : null}
      <Button
        variant="secondary"
        size="sm"
        className="w-full aria-disabled:cursor-wait aria-disabled:text-slate-400"
        aria-label={`Show more ${label}`}
        aria-disabled={loading || undefined}
        onClick={(event) => void more(event.currentTarget)}
      >
        {loading ? 'Loading…' : 'Show more'}
      </Button>
    </div>
  );
}
