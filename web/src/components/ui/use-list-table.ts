import { useSearchParams } from 'react-router';

import { useColumns, useRowSelection, type Sort, type SortDir } from './table-tools';

/** A list screen shows its page as a dense table (the default) or as cards (`?view=cards`). */
export type ListView = 'table' | 'cards';

type ListTableOptions<F extends string, K extends string, C extends string> = {
  /** The table's name for its columns remembered in this browser (`prospector.columns.<table>`). */
  table: string;
  /** The columns a user may hide. */
  columns: readonly C[];
  /** The filters kept in the address. */
  filters: readonly F[];
  /** The server's sort keys, each with the direction it starts in. */
  sorts: Record<K, SortDir>;
  /** The server's own order (no `sort` asked), marked on its column. */
  initial: Sort<NoInfer<K>>;
};

const put = (params: URLSearchParams, key: string, value: string) => {
  if (value) params.set(key, value);
  else params.delete(key);
};

/**
 * The state of a server-paged list screen: filters, order (`sort`, `dir`), page (`offset`) and view
 * in the address, so a reload or a shared link shows the same rows; hidden columns in this browser;
 * the rows ticked. `viewState` and `applyView` are what a saved view keeps and brings back.
 */
export function useListTable<F extends string, K extends string, C extends string>(options: ListTableOptions<F, K, C>) {
  const { filters: filterKeys, sorts, initial } = options;
  const [params, setParams] = useSearchParams();
  const columns = useColumns<C>(options.table, options.columns);
  const selection = useRowSelection();

  const isSortKey = (key: unknown): key is K => typeof key === 'string' && Object.hasOwn(sorts, key);
  const asked = params.get('sort');
  const key = isSortKey(asked) ? asked : null;
  const dir = params.get('dir');
  const sort: Sort<K> = key ? { key, dir: dir === 'asc' || dir === 'desc' ? dir : sorts[key] } : initial;
  const filters = Object.fromEntries(filterKeys.map((f) => [f, params.get(f) ?? ''])) as Record<F, string>;
  const view: ListView = params.get('view') === 'cards' ? 'cards' : 'table';
  const offset = Math.max(0, Number(params.get('offset')) || 0);

  const edit = (change: (next: URLSearchParams) => void, replace = false) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        change(next);
        return next;
      },
      { replace },
    );

  return {
    filters,
    filtered: filterKeys.some((f) => filters[f]),
    offset,
    view,
    sort,
    /** What the server is asked: an order only once the user picked one (else the server's own). */
    serverSort: key ? { sort: key, dir: sort.dir } : {},
    columns,
    selection,
    /** Sets one filter (empty clears it) and goes back to the first page; a selection belongs to
     * the filters it was made under. */
    setFilter: (filter: string, value: string) => {
      selection.clear();
      edit((next) => {
        put(next, filter, value);
        next.delete('offset');
      });
    },
    /** Clears the filters; the order and the view stay. */
    clearFilters: () => {
      selection.clear();
      edit((next) => {
        for (const f of filterKeys) next.delete(f);
        next.delete('offset');
      });
    },
    setOffset: (to: number) => edit((next) => put(next, 'offset', to ? String(to) : '')),
    /** After a delete of the selection: a page it emptied would read "none", so show the one before. */
    afterDelete: (page: readonly string[], pageSize: number) => {
      const emptied = selection.allMatching || page.every((id) => selection.picked.has(id));
      const back = selection.allMatching ? 0 : Math.max(0, offset - pageSize);
      selection.clear();
      if (emptied && offset > 0) edit((next) => put(next, 'offset', back ? String(back) : ''));
    },
    /** The sorted column again flips its direction; another column starts in its own. */
    toggleSort: (column: K) =>
      edit((next) => {
        next.set('sort', column);
        next.set('dir', sort.key === column ? (sort.dir === 'asc' ? 'desc' : 'asc') : sorts[column]);
        next.delete('offset');
      }),
    setView: (to: ListView) => edit((next) => put(next, 'view', to === 'cards' ? 'cards' : ''), true),
    /** The settings a saved view keeps: filters, order, view and hidden columns. */
    viewState: () => ({
      filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v)),
      sort: key ? sort : null,
      view,
      hidden: [...columns.hidden],
    }),
    /** Shows a saved view: its filters, order and view replace the address's; unknown keys are ignored. */
    applyView: (state: Record<string, unknown>) => {
      const next = new URLSearchParams();
      const saved = (state.filters ?? {}) as Record<string, unknown>;
      for (const f of filterKeys) {
        const value = saved[f];
        if (typeof value === 'string') put(next, f, value);
      }
      const order = state.sort as { key?: unknown; dir?: unknown } | null | undefined;
      if (isSortKey(order?.key)) {
        next.set('sort', order.key);
        if (order.dir === 'asc' || order.dir === 'desc') next.set('dir', order.dir);
      }
      if (state.view === 'cards') next.set('view', 'cards');
      selection.clear();
      setParams(next);
      columns.set(Array.isArray(state.hidden) ? state.hidden.map(String) : []);
    },
  };
}
