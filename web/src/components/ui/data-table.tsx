import { Fragment, type ReactNode } from 'react';

import { formatDate, formatFullDateTime } from '@/lib/format';

import { SortHeader, type RowSelection, type Sort } from './table-tools';
import type { ListView } from './use-list-table';

export type DataColumn<Row, C extends string, K extends string> = {
  key: C;
  label: string;
  /** The server's sort key for this column, when it sorts. */
  sort?: K;
  /** Figures, right-aligned. */
  numeric?: boolean;
  cell: (row: Row) => ReactNode;
};

/** What the table reads of its screen's state (`useListTable`): order, shown columns, ticks. */
export type TableState<K extends string, C extends string> = {
  sort: Sort<K>;
  toggleSort: (key: K) => void;
  columns: { shown: (key: C) => boolean };
  selection: RowSelection;
};

type DataTableProps<Row, C extends string, K extends string> = {
  /** The table's name ("Contacts"), also in its header checkbox ("Select all contacts on this page"). */
  label: string;
  rows: readonly Row[];
  rowId: (row: Row) => string;
  /** The row's name, for its checkbox ("Select Ann Lee"). */
  rowName: (row: Row) => string;
  /** The first column: the record's name, a row header always shown. */
  first: { label: string; sort?: K; cell: (row: Row) => ReactNode };
  columns: readonly DataColumn<Row, C, K>[];
  state: TableState<K, C>;
  /** Buttons at the end of a row. */
  actions?: (row: Row) => ReactNode;
};

const cell = 'px-3 py-2 whitespace-nowrap';
const checkbox = 'size-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/**
 * A page of records as a dense table (issue 23): a checkbox per row and one for the page, headers
 * that ask the server for another order, columns the user may hide. It scrolls sideways inside its
 * own frame (focusable, so the keyboard can scroll it too), never the page.
 */
export function DataTable<Row, C extends string, K extends string>({
  label,
  rows,
  rowId,
  rowName,
  first,
  columns,
  state,
  actions,
}: DataTableProps<Row, C, K>) {
  const { sort, toggleSort, selection } = state;
  const page = rows.map(rowId);
  const ticks = selection.ticks(page);
  const visible = columns.filter((c) => state.columns.shown(c.key));
  const header = (title: string, key: K | undefined, numeric = false) => {
    const className = `${cell} ${numeric ? 'text-right' : ''}`;
    return key ? (
      <SortHeader column={key} sort={sort} onSort={toggleSort} className={className}>
        {title}
      </SortHeader>
    ) : (
      <th scope="col" className={className}>
        {title}
      </th>
    );
  };
  return (
    <div
      role="region"
      aria-label={`${label} table`}
      tabIndex={0}
      // `relative`: screen-reader-only text in the cells is positioned, and would otherwise widen the page.
      className="relative overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      <table aria-label={label} className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500 uppercase">
          <tr>
            <th scope="col" className="w-8 px-3 py-2">
              <input
                type="checkbox"
                className={checkbox}
                aria-label={`Select all ${label.toLowerCase()} on this page`}
                checked={ticks === 'all'}
                ref={(box) => {
                  if (box) box.indeterminate = ticks === 'some';
                }}
                onChange={() => selection.togglePage(page)}
              />
            </th>
            {header(first.label, first.sort)}
            {visible.map((c) => (
              <Fragment key={c.key}>{header(c.label, c.sort, c.numeric)}</Fragment>
            ))}
            {actions ? (
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => {
            const id = rowId(row);
            const picked = selection.isPicked(id);
            return (
              // A light tint: grey text on it keeps its contrast.
              <tr key={id} data-row-id={id} className={picked ? 'bg-indigo-50/40' : undefined}>
                <td className="px-3 py-2">
                  <input
                    type="checkbox"
                    className={checkbox}
                    aria-label={`Select ${rowName(row)}`}
                    checked={picked}
                    onChange={() => selection.toggle(id, page)}
                  />
                </td>
                <th scope="row" className={`${cell} text-left font-medium text-slate-900`}>
                  {first.cell(row)}
                </th>
                {visible.map((c) => (
                  <td key={c.key} className={`${cell} text-slate-600 ${c.numeric ? 'text-right tabular-nums' : ''}`}>
                    {c.cell(row)}
                  </td>
                ))}
                {actions ? <td className={`${cell} text-right`}>{actions(row)}</td> : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const VIEWS = [
  { key: 'table', label: 'Table' },
  { key: 'cards', label: 'Cards' },
] as const;

/** Table or cards: the same page of records either way. */
export function ViewToggle({ view, onChange }: { view: ListView; onChange: (view: ListView) => void }) {
  return (
    <div role="group" aria-label="View" className="inline-flex rounded-md bg-white shadow-xs ring-1 ring-slate-300">
      {VIEWS.map((v) => (
        <button
          key={v.key}
          type="button"
          aria-pressed={view === v.key}
          onClick={() => onChange(v.key)}
          className="px-3 py-1 text-sm font-medium text-slate-700 first:rounded-l-md last:rounded-r-md focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:bg-indigo-600 aria-pressed:text-white"
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}

/** A moment as its day ("Jan 15, 2026") in a table cell, the full moment on hover; '—' when none. */
export function DayCell({ iso }: { iso: string | null | undefined }) {
  return iso ? (
    <time dateTime={iso} title={formatFullDateTime(iso)}>
      {formatDate(iso)}
    </time>
  ) : (
    '—'
  );
}
