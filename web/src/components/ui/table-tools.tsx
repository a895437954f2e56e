import * as Menu from '@radix-ui/react-dropdown-menu';
import { useState, type ReactNode } from 'react';

/**
 * Small parts of a dense table: sortable column headers (with `aria-sort`) and a column chooser
 * remembered in this browser.
 */

export type SortDir = 'asc' | 'desc';
export type Sort<K extends string> = { key: K; dir: SortDir };

/** The sort state; asking for the sorted column again flips its direction. */
export function useSort<K extends string>(initial: Sort<K>) {
  const [sort, setSort] = useState(initial);
  const toggle = (key: K, firstDir: SortDir = 'asc') =>
    setSort((s) => (s.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: firstDir }));
  return { sort, toggle, set: setSort };
}

/** Rows sorted by a value per column; missing values last whichever the direction. */
export function sortRows<T, K extends string>(rows: T[], sort: Sort<K>, value: (row: T, key: K) => string | number | null): T[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a, sort.key);
    const y = value(b, sort.key);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * sign;
    return String(x).localeCompare(String(y), undefined, { sensitivity: 'base', numeric: true }) * sign;
  });
}

/** A column header that sorts by its column; screen readers hear the current order. */
export function SortHeader<K extends string>({
  column,
  sort,
  onSort,
  children,
  firstDir = 'asc',
  className = 'px-3 py-2',
}: {
  column: K;
  sort: Sort<K>;
  onSort: (key: K, firstDir?: SortDir) => void;
  children: ReactNode;
  /** Numbers read best largest first. */
  firstDir?: SortDir;
  className?: string;
}) {
  const active = sort.key === column;
  return (
    <th scope="col" aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'} className={className}>
      <button
        type="button"
        onClick={() => onSort(column, firstDir)}
        className="inline-flex items-center gap-1 uppercase hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {children}
        <span aria-hidden="true" className={active ? 'text-slate-800' : 'text-slate-300'}>
          {active && sort.dir === 'asc' ? '▲' : '▼'}
        </span>
      </button>
    </th>
  );
}

const storageKey = (table: string) => `prospector.columns.${table}`;

/** The columns shown in a table, remembered per table in this browser (all by default). */
export function useColumns<K extends string>(table: string, all: readonly K[]) {
  const [hidden, setHidden] = useState<Set<K>>(() => {
    try {
      const saved: unknown = JSON.parse(localStorage.getItem(storageKey(table)) ?? '[]');
      return new Set(Array.isArray(saved) ? (saved.filter((k) => all.includes(k as K)) as K[]) : []);
    } catch {
      return new Set();
    }
  });
  const toggle = (key: K) =>
    setHidden((was) => {
      const next = new Set(was);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      localStorage.setItem(storageKey(table), JSON.stringify([...next]));
      return next;
    });
  /** Hides exactly these (a saved view's columns); unknown keys are ignored. */
  const set = (keys: readonly string[]) => {
    const next = new Set(all.filter((k) => keys.includes(k)));
    localStorage.setItem(storageKey(table), JSON.stringify([...next]));
    setHidden(next);
  };
  return { shown: (key: K) => !hidden.has(key), toggle, hidden, set };
}

/** A "Columns" menu of checkboxes; the table keeps at least its first column. */
export function ColumnMenu<K extends string>({
  columns,
  shown,
  onToggle,
}: {
  columns: readonly { key: K; label: string }[];
  shown: (key: K) => boolean;
  onToggle: (key: K) => void;
}) {
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className="rounded-md bg-white px-2.5 py-1 text-xs font-semibold text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600">
        Columns
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content align="end" sideOffset={6} className="z-40 min-w-44 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-200">
          {columns.map((c) => (
            <Menu.CheckboxItem
              key={c.key}
              checked={shown(c.key)}
              onCheckedChange={() => onToggle(c.key)}
              onSelect={(e) => e.preventDefault()}
              className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 outline-none data-[highlighted]:bg-indigo-50"
            >
              <span aria-hidden="true" className="w-4 text-indigo-700">
                {shown(c.key) ? '✓' : ''}
              </span>
              {c.label}
            </Menu.CheckboxItem>
          ))}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

/** How much of a page is ticked, for its header checkbox. */
export type PageTicks = 'all' | 'some' | 'none';

/**
 * Rows ticked by hand (kept across pages), or every row the list's filters match (`allMatching`,
 * resolved by the server); `page` is the ids of the rows shown.
 */
export function useRowSelection() {
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const clear = () => {
    setPicked(new Set());
    setAllMatching(false);
  };
  const isPicked = (id: string) => allMatching || picked.has(id);
  const toggle = (id: string, page: readonly string[]) => {
    // Unticking one of "all matching" keeps the rest of this page ticked.
    const from = allMatching ? new Set(page) : null;
    setAllMatching(false);
    setPicked((prev) => {
      const next = new Set(from ?? prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  const selectPage = (page: readonly string[]) => {
    setAllMatching(false);
    setPicked((prev) => new Set([...prev, ...page]));
  };
  const ticks = (page: readonly string[]): PageTicks =>
    allMatching || (page.length > 0 && page.every((id) => picked.has(id))) ? 'all' : page.some((id) => picked.has(id)) ? 'some' : 'none';
  /** The header checkbox: ticks the page, or unticks it once all of it is ticked (all matching included). */
  const togglePage = (page: readonly string[]) => {
    if (allMatching) return clear();
    if (ticks(page) !== 'all') return selectPage(page);
    setPicked((prev) => new Set([...prev].filter((id) => !page.includes(id))));
  };
  return { picked, allMatching, selectAllMatching: () => setAllMatching(true), selectPage, toggle, togglePage, ticks, isPicked, clear };
}

export type RowSelection = ReturnType<typeof useRowSelection>;
