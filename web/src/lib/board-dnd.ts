import { pointerWithin, type Active, type Announcements, type CollisionDetection, type KeyboardCoordinateGetter } from '@dnd-kit/core';

/** What a dragged card carries: the card, and the column it was picked up from. */
export type Carried<T> = { card: T; from: string };

export const carriedBy = <T>(active: Active | null): Carried<T> | null =>
  (active?.data.current as Carried<T> | undefined) ?? null;

/**
 * Where a drop on `to` leads: `move` to one of the card's `targets` (the one-step moves its buttons
 * offer), `stay` on its own column or outside every column, `refuse` on any other column.
 */
export function dropVerdict(targets: readonly string[], from: string, to: string | null): 'move' | 'stay' | 'refuse' {
  if (to === null || to === from) return 'stay';
  return targets.includes(to) ? 'move' : 'refuse';
}

/** The column under the pointer, or, moved by the keyboard, under the card's centre. */
export const detectColumn: CollisionDetection = (args) => {
  if (args.pointerCoordinates) return pointerWithin(args);
  const { left, top, width, height } = args.collisionRect;
  return pointerWithin({ ...args, pointerCoordinates: { x: left + width / 2, y: top + height / 2 } });
};

/**
 * Keyboard moves: → and ← carry the picked-up card to the next and previous column in board order
 * (whatever the layout), centred on it; other keys leave it where it is.
 */
export const stepThroughColumns =
  (columns: readonly string[]): KeyboardCoordinateGetter =>
  (event, { context: { active, over, collisionRect, droppableRects } }) => {
    const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
    const at = over?.id ?? carriedBy(active)?.from;
    if (step === 0 || at === undefined || !collisionRect) return undefined;
    const to = columns[columns.indexOf(String(at)) + step];
    const rect = to === undefined ? undefined : droppableRects.get(to);
    if (!rect) return undefined;
    return {
      x: rect.left + rect.width / 2 - collisionRect.width / 2,
      y: rect.top + rect.height / 2 - collisionRect.height / 2,
    };
  };

export type BoardWords<T> = {
  /** A card as read out ("Jane Doe"). */
  name: (card: T) => string;
  /** A column's title ("Email Sent"). */
  title: (column: string) => string;
  /** The columns a card in `from` may be dropped on. */
  targets: (card: T, from: string) => readonly string[];
  /** Why any other column refuses it ("A lead moves one stage at a time."). */
  refusal: string;
};

const either = (titles: string[]) => titles.join(' or ');

/** Drags (dnd-kit keeps one `active` per drag) that have left their own column: over it at the
 * pick-up, nothing is said, so "Picked up …" is what is heard; coming back, it is said. */
const wandered = new WeakSet<Active>();

/** What a screen reader hears while a card is dragged, with the mouse or the keyboard. */
export function boardAnnouncements<T>({ name, title, targets, refusal }: BoardWords<T>): Announcements {
  const about = (active: Active) => {
    const carried = carriedBy<T>(active);
    return carried && { ...carried, who: name(carried.card), targets: targets(carried.card, carried.from) };
  };
  const overId = (over: { id: string | number } | null) => (over ? String(over.id) : null);
  return {
    onDragStart({ active }) {
      const c = about(active);
      if (!c) return undefined;
      const options = c.targets.length > 0 ? `It can move to ${either(c.targets.map(title))}.` : 'It has no stage to move to.';
      return `Picked up ${c.who} in ${title(c.from)}. ${options}`;
    },
    onDragOver({ active, over }) {
      const c = about(active);
      if (!c) return undefined;
      const to = overId(over);
      if (to === c.from) return wandered.has(active) ? `Back over ${title(to)}, where ${c.who} is now.` : undefined;
      wandered.add(active);
      if (to === null) return `${c.who} is not over a stage.`;
      return dropVerdict(c.targets, c.from, to) === 'move'
        ? `Over ${title(to)}. Drop to move ${c.who} there.`
        : `Over ${title(to)}: ${c.who} cannot move there. ${refusal}`;
    },
    onDragEnd({ active, over }) {
      const c = about(active);
      if (!c) return undefined;
      const to = overId(over);
      const verdict = dropVerdict(c.targets, c.from, to);
      if (verdict === 'move' && to !== null) return `Moved ${c.who} to ${title(to)}.`;
      if (verdict === 'refuse') return `${c.who} was not moved: ${refusal} It stays in ${title(c.from)}.`;
      return `${c.who} stays in ${title(c.from)}.`;
    },
    onDragCancel({ active }) {
      const c = about(active);
      return c ? `Cancelled. ${c.who} stays in ${title(c.from)}.` : undefined;
    },
  };
}
