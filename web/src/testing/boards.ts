import { fireEvent, waitFor, within } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * jsdom has no layout: a board column's list counts as 70% of the window tall (537 px) and each
 * card as its estimate (see use-column-virtualizer.ts), so a list renders the cards of its first
 * 537 px and a few more. These helpers scroll it as a user would.
 */

/** Scrolls `list` to `top` px, as the wheel would. */
export function scrollList(list: HTMLElement, top: number) {
  list.scrollTop = top;
  fireEvent.scroll(list);
}

/** The names of the cards `list` renders now, in order. */
export const renderedCards = (list: HTMLElement) =>
  within(list)
    .queryAllByRole('listitem')
    .map((li) => li.getAttribute('aria-label'));

/** The place (aria-posinset) of the last card `list` renders now. */
const lastPlace = (list: HTMLElement) =>
  Math.max(0, ...within(list).queryAllByRole('listitem').map((li) => Number(li.getAttribute('aria-posinset'))));

/** Scrolls `list` down from the top, a window at a time, calling `visit` at each stop until it
 * answers or the list's end is rendered. */
function scrollDown<R>(list: HTMLElement, visit: () => R | undefined): R | undefined {
  let seen = -1;
  for (let top = 0; ; top += 300) {
    scrollList(list, top);
    const found = visit();
    if (found !== undefined) return found;
    const last = lastPlace(list);
    if (last === seen) return undefined;
    seen = last;
  }
}

/** Every card `list` has loaded, in order, collected by each card's place while scrolling through
 * it; then back to the top. */
export function loadedCards(list: HTMLElement): (string | null)[] {
  const byPlace = new Map<number, string | null>();
  scrollDown(list, () => {
    for (const li of within(list).queryAllByRole('listitem')) {
      byPlace.set(Number(li.getAttribute('aria-posinset')), li.getAttribute('aria-label'));
    }
    return undefined;
  });
  scrollList(list, 0);
  return [...byPlace.entries()].sort(([a], [b]) => a - b).map(([, name]) => name);
}

/**
 * `waitFor` for a check that reads the loaded cards. Reading scrolls the list, which changes the
 * DOM, and `waitFor` re-checks on every DOM change: it would never yield to the server's answer.
 * This one polls instead (it watches only the document's head).
 */
export const waitForCards = (check: () => void) => waitFor(check, { container: document.head });

/** Scrolls `list` down until it renders the card named `name`, and returns it. */
export function revealCard(list: HTMLElement, name: string): HTMLElement {
  const card = scrollDown(list, () => within(list).queryByRole('listitem', { name }) ?? undefined);
  if (!card) throw new Error(`${name} is not among the loaded cards`);
  return card;
}

const rect = (left: number, top: number, width: number, height: number) =>
  DOMRect.fromRect({ x: left, y: top, width, height });

/**
 * Lays the board out for dnd-kit, which finds the column under the pointer (or under a card moved
 * by the keyboard) by position: column i (in page order) is 280 × 600 px at x = 300·i, anything
 * inside a column a 260 × 100 px box 100 px below its top, and the dragged card's overlay where its
 * fixed position puts it. Undone after the test (restoreMocks).
 */
export function layOutBoard() {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    // dnd-kit measures the overlay by its content.
    const overlay = this.closest<HTMLElement>('[style*="position: fixed"]');
    if (overlay) {
      const { left, top, width, height } = overlay.style;
      return rect(parseFloat(left), parseFloat(top), parseFloat(width), parseFloat(height));
    }
    const column = this.closest('section[data-stage]');
    if (!column) return rect(0, 0, 0, 0); // as jsdom measures everything
    const left = 300 * [...document.querySelectorAll('section[data-stage]')].indexOf(column);
    return column === this ? rect(left, 0, 280, 600) : rect(left + 10, 100, 260, 100);
  });
}

/** The centre of column `i` as `layOutBoard` places it, where a pointer drops a card on it. */
export const columnCentre = (i: number) => ({ clientX: 300 * i + 140, clientY: 300 });


/**
 * Picks up the card of `handle` with the mouse (pressed, then moved past dnd-kit's activation
 * distance); `move` carries it to a point and `drop` releases it there.
 */
export function pointerDrag(handle: HTMLElement) {
  const { left, top, width, height } = handle.getBoundingClientRect();
  let at = { clientX: left + width / 2, clientY: top + height / 2 };
  const pointer = { isPrimary: true, pointerId: 1, button: 0 };
  fireEvent.pointerDown(handle, { ...pointer, ...at });
  const move = (to: { clientX: number; clientY: number }) => {
    at = to;
    fireEvent.pointerMove(document, { ...pointer, ...to });
  };
  move({ clientX: at.clientX + 10, clientY: at.clientY });
  return { move, drop: () => fireEvent.pointerUp(document, { ...pointer, ...at }) };
}
