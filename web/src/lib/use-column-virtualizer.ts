import { defaultRangeExtractor, measureElement, observeElementRect, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { RefObject } from 'react';

/** Space between two cards (the list's `space-y-2`). */
const GAP = 8;
/** Room at the list's top and bottom for a focused card's outline (the list's `p-0.5`). */
const EDGE = 2;
/** Cards rendered beyond each end of the visible ones, so Tab and a quick scroll find them ready. */
const OVERSCAN = 3;
/** How much of the window a column's list may take (its `max-h-[70vh]`). */
const LIST_SHARE_OF_WINDOW = 0.7;

type Options<T> = {
  /** Every card the column has loaded, in order. */
  items: readonly T[];
  /** The list that scrolls (`overflow-y-auto`). */
  list: RefObject<HTMLElement | null>;
  /** A card's usual height in px, until it is measured. */
  estimate: number;
  /** Cards rendered wherever the list is scrolled: the one being dragged (dnd-kit needs its node
   * until the drop) and the one focus is about to follow. */
  pinned: readonly (string | null)[];
};

export type ColumnRow<T> = { item: T; index: number };

/**
 * A board column that renders only the cards in and near its visible part, measured as they
 * render. The rows are one run from the first to the last rendered card (pinned ones included), so
 * they sit in the list's normal flow between two spacers that stand for the cards not rendered:
 * the list keeps `ul > li` and its scroll height.
 */
/** A list without a box yet (before layout, or in jsdom, which has none) counts as tall as a column
 * may grow: its first render lists the first cards rather than none. */
const unlaidList = (width: number) => ({ width, height: Math.round(window.innerHeight * LIST_SHARE_OF_WINDOW) });

export function useColumnVirtualizer<T extends { id: string }>({ items, list, estimate, pinned }: Options<T>) {
  const pinnedIndexes = pinned.flatMap((id) => {
    const index = id === null ? -1 : items.findIndex((item) => item.id === id);
    return index < 0 ? [] : [index];
  });
  // The app is not built with React Compiler, which is what this rule guards: the column re-renders
  // whenever the virtualizer's range changes (the hook's own state).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLElement, HTMLElement>({
    count: items.length,
    getScrollElement: () => list.current,
    getItemKey: (index) => items[index]?.id ?? index,
    estimateSize: () => estimate,
    gap: GAP,
    paddingStart: EDGE,
    paddingEnd: EDGE,
    overscan: OVERSCAN,
    rangeExtractor: (range: Range) => {
      const shown = defaultRangeExtractor(range);
      const first = Math.min(shown[0] ?? Infinity, ...pinnedIndexes);
      const last = Math.max(shown.at(-1) ?? -Infinity, ...pinnedIndexes);
      return Number.isFinite(first) ? Array.from({ length: last - first + 1 }, (_, i) => first + i) : [];
    },
    initialRect: unlaidList(0),
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : unlaidList(rect.width))),
    // A card without a box counts as its estimate.
    measureElement: (element, entry, instance) => measureElement(element, entry, instance) || estimate,
  });

  const virtualItems = virtualizer.getVirtualItems();
  const rows: ColumnRow<T>[] = virtualItems.flatMap(({ index }) => {
    const item = items[index];
    return item ? [{ item, index }] : [];
  });
  const first = virtualItems[0];
  const last = virtualItems.at(-1);
  // The space of the cards not rendered, above and below those that are (the list's own padding,
  // EDGE, is counted in the virtualizer's offsets).
  const spacers = {
    before: first ? first.start - EDGE : 0,
    after: last ? virtualizer.getTotalSize() - last.end - EDGE : 0,
  };
  return { rows, spacers, measure: virtualizer.measureElement };
}
