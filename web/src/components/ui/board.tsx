import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { GripVertical } from 'lucide-react';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';

import { boardAnnouncements, carriedBy, detectColumn, dropVerdict, stepThroughColumns, type Carried } from '@/lib/board-dnd';
import { useColumnVirtualizer } from '@/lib/use-column-virtualizer';

type Drag = { from: string; targets: readonly string[]; over: string | null; cardId: string };

/** What the columns and cards of a board read: the drag under way, and the cards to keep rendered. */
const BoardContext = createContext<{ drag: Drag | null; follow: Follow | null; refusal: string }>({
  drag: null,
  follow: null,
  refusal: '',
});

/** A card just moved (its mutation settled) and the column it went to. */
export type Follow = { id: string; to: string };

type BoardProps<T> = {
  /** The columns in board order, as ← and → walk them. */
  columns: readonly { id: string; title: string }[];
  /** A card as read out and shown while dragged ("Jane Doe"). */
  name: (card: T) => string;
  /** The columns a card in `from` may be dropped on: exactly the one-step moves its buttons offer. */
  targets: (card: T, from: string) => readonly string[];
  /** Why any other column refuses the card, shown over it and announced. */
  refusal: string;
  /** What "Drag … handle" and the arrow keys do here, shown above the columns and read with each handle. */
  instructions: string;
  /** Sends the move: the same mutation the card's button sends. */
  onMove: (card: T, from: string, to: string) => void;
  /** A card just moved: once it shows in its new column, its handle takes the focus if the move
   * lost it (the handle it had went with the old column's card). */
  follow: Follow | null;
  onFollowed: () => void;
  /** The columns' track (grid columns and their least width). */
  className: string;
  children: ReactNode;
};

/**
 * A board whose cards move between columns by drag and drop (pointer, touch via the handle, or
 * keyboard: Space, ← / →, Space) exactly where their buttons would move them; a drop anywhere else
 * sends nothing. The columns scroll sideways in their own track on narrow screens.
 */
export function Board<T extends { id: string }>({
  columns,
  name,
  targets,
  refusal,
  instructions,
  onMove,
  follow,
  onFollowed,
  className,
  children,
}: BoardProps<T>) {
  const [drag, setDrag] = useState<(Drag & { card: T }) | null>(null);
  const track = useRef<HTMLDivElement>(null);
  // The same sensors for as long as the columns are the same (`columns` is a new array each render).
  const order = columns.map((c) => c.id).join(' ');
  const keyboard = useMemo(
    () => ({
      coordinateGetter: stepThroughColumns(order.split(' ')),
      // Tab leaving a picked-up card puts it back (dnd-kit's default drops it where it is).
      keyboardCodes: { start: ['Space', 'Enter'], cancel: ['Escape', 'Tab'], end: ['Space', 'Enter'] },
    }),
    [order],
  );
  const sensors = useSensors(
    // A few pixels of travel first, so a click on the handle is not a drag.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, keyboard),
  );
  const title = (id: string) => columns.find((c) => c.id === id)?.title ?? id;
  const announcements = boardAnnouncements<T>({ name, title, targets, refusal });

  // Every render while a moved card is followed: the refetched board may not show it moved yet.
  useEffect(() => {
    if (follow === null) return;
    const copies = [...(track.current?.querySelectorAll<HTMLElement>('[data-card-id]') ?? [])].filter((el) => el.dataset.cardId === follow.id);
    const arrived = copies.find((el) => el.closest('[data-stage]')?.getAttribute('data-stage') === follow.to);
    if (!arrived && copies.length > 0) return; // still shown where it was
    onFollowed(); // arrived, or not among the cards its new column has loaded
    if (arrived && (document.activeElement === document.body || document.activeElement === null)) {
      arrived.querySelector<HTMLElement>('[data-drag-handle], a[href], button')?.focus();
    }
  });

  const verdict = drag ? dropVerdict(drag.targets, drag.from, drag.over) : 'stay';
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={detectColumn}
      accessibility={{ announcements, screenReaderInstructions: { draggable: instructions } }}
      onDragStart={({ active }) => {
        const carried = carriedBy<T>(active);
        if (carried) setDrag({ ...carried, cardId: carried.card.id, targets: targets(carried.card, carried.from), over: carried.from });
      }}
      onDragOver={({ over }) => setDrag((d) => d && { ...d, over: over ? String(over.id) : null })}
      onDragCancel={() => setDrag(null)}
      onDragEnd={({ active, over }) => {
        setDrag(null);
        const carried = carriedBy<T>(active);
        const to = over ? String(over.id) : null;
        if (carried && to !== null && dropVerdict(targets(carried.card, carried.from), carried.from, to) === 'move') {
          onMove(carried.card, carried.from, to);
        }
      }}
    >
      <div>
        <p className="text-xs text-slate-600">{instructions}</p>
        <BoardContext.Provider value={{ drag, follow, refusal }}>
          <div ref={track} className={`mt-2 grid grid-flow-col gap-3 overflow-x-auto pb-2 ${className}`}>
            {children}
          </div>
        </BoardContext.Provider>
      </div>
      {/* The card under the pointer; its ring says whether the column below takes it. */}
      <DragOverlay dropAnimation={null}>
        {drag ? (
          <div
            aria-hidden="true"
            className={`cursor-grabbing rounded-lg bg-white p-3 text-sm font-semibold text-slate-900 shadow-lg ring-2 ${
              verdict === 'refuse' ? 'ring-rose-500' : verdict === 'move' ? 'ring-indigo-600' : 'ring-slate-300'
            }`}
          >
            {name(drag.card)}
            {verdict === 'refuse' ? <p className="mt-1 text-xs font-medium text-rose-700">Can&apos;t move here</p> : null}
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}

/**
 * One column of a board, a drop target. While a card is dragged it says what a drop does: dashed
 * where the card may go, and over a column, "Drop to move to …" or "Can't move here".
 */
export function BoardColumn({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const { setNodeRef } = useDroppable({ id });
  const { drag, refusal } = useContext(BoardContext);
  const state = drag === null || drag.from === id ? undefined : drag.targets.includes(id) ? 'allowed' : 'refused';
  const over = state !== undefined && drag?.over === id;
  const cue =
    state === 'allowed'
      ? over
        ? 'bg-indigo-50 outline-2 outline-indigo-600'
        : 'outline-2 outline-dashed outline-indigo-400'
      : over
        ? 'bg-rose-50 outline-2 outline-rose-600'
        : '';
  return (
    <section
      ref={setNodeRef}
      aria-label={title}
      data-stage={id}
      data-drop={state}
      data-over={over || undefined}
      className={`relative min-w-0 rounded-xl bg-slate-100 p-3 ${cue}`}
    >
      {over ? (
        <p
          className={`pointer-events-none absolute inset-x-3 top-3 z-10 rounded-md px-2 py-1 text-center text-xs font-semibold text-white shadow ${
            state === 'allowed' ? 'bg-indigo-700' : 'bg-rose-700'
          }`}
        >
          {state === 'allowed' ? `Drop to move to ${title}` : `Can't move here. ${refusal}`}
        </p>
      ) : null}
      {children}
    </section>
  );
}

/** A rendered card's place in its column's list: for the virtualizer and for screen readers. */
export type CardRow = { index: number; setSize: number; measure: (element: HTMLElement | null) => void };

type CardListProps<T> = {
  items: readonly T[];
  /** Every card of the column, loaded or not. */
  total: number;
  label: string;
  list: RefObject<HTMLUListElement | null>;
  /** A card's usual height in px. */
  estimate: number;
  renderCard: (item: T, row: CardRow) => ReactNode;
};

/**
 * A column's cards: it scrolls on its own (focusable, so the keyboard scrolls it too) and renders
 * only the cards in and near view; each says its place in the whole column (aria-posinset/setsize).
 */
export function CardList<T extends { id: string }>({ items, total, label, list, estimate, renderCard }: CardListProps<T>) {
  const { drag, follow } = useContext(BoardContext);
  const { rows, spacers, measure } = useColumnVirtualizer({ items, list, estimate, pinned: [drag?.cardId ?? null, follow?.id ?? null] });
  // The spacers are the list's ::before and ::after (padding would not do: a list's padding is part
  // of its max-height, so a tall one would grow the list instead of scrolling it).
  const spacing = { '--virtual-before': `${spacers.before}px`, '--virtual-after': `${spacers.after}px` } as CSSProperties;
  return (
    <ul
      ref={list}
      tabIndex={0}
      aria-label={label}
      style={spacing}
      className="mt-3 max-h-[70vh] space-y-2 overflow-y-auto rounded-lg p-0.5 before:block before:h-(--virtual-before) after:block after:h-(--virtual-after) focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      {rows.map(({ item, index }) => renderCard(item, { index, setSize: Math.max(total, items.length), measure }))}
    </ul>
  );
}

/**
 * A card that can be dragged by its handle: `item` goes on its `li`, `handle` on a `DragHandle`.
 * `disabled` while its buttons are (a move already on its way).
 */
export function useBoardCard(card: { id: string }, column: string, row: CardRow, disabled = false) {
  const data: Carried<typeof card> = { card, from: column };
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({ id: card.id, data, disabled });
  const { measure } = row;
  const ref = useCallback(
    (element: HTMLLIElement | null) => {
      setNodeRef(element);
      measure(element);
    },
    [setNodeRef, measure],
  );
  return {
    isDragging,
    item: { ref, 'data-index': row.index, 'data-card-id': card.id, 'aria-posinset': row.index + 1, 'aria-setsize': row.setSize },
    handle: { ...attributes, ...listeners, ref: setActivatorNodeRef },
  };
}

/** The grip a card is dragged by; focused, Space picks the card up. */
export function DragHandle({ label, handle }: { label: string; handle: ReturnType<typeof useBoardCard>['handle'] }) {
  return (
    <button
      type="button"
      {...handle}
      aria-label={label}
      data-drag-handle=""
      className="-ml-1 shrink-0 cursor-grab touch-none rounded p-0.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600 active:cursor-grabbing aria-disabled:cursor-not-allowed aria-disabled:text-slate-300"
    >
      <GripVertical aria-hidden="true" className="size-4" />
    </button>
  );
}
