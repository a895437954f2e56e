import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { formatDate } from '@/lib/format';
import { seriousViolations } from '@/testing/axe';

import { DataTable, DayCell, ViewToggle, type DataColumn } from './data-table';
import { useRowSelection, type Sort } from './table-tools';

type Row = { id: string; name: string; city: string; score: number; seen: string | null };
type Column = 'city' | 'score' | 'seen';
type Key = 'name' | 'score';

const ROWS: Row[] = [
  { id: '1', name: 'Ann', city: 'Austin', score: 90, seen: '2026-01-10T15:00:00Z' },
  { id: '2', name: 'Bo', city: 'Dallas', score: 40, seen: null },
];
const COLUMNS: DataColumn<Row, Column, Key>[] = [
  { key: 'city', label: 'City', cell: (r) => r.city },
  { key: 'score', label: 'Score', sort: 'score', numeric: true, cell: (r) => r.score },
  { key: 'seen', label: 'Seen', cell: (r) => <DayCell iso={r.seen} /> },
];

/** A table with its state held as a screen would, sorting by asking `onSort`. */
function Harness({ hidden = [], onSort = () => {} }: { hidden?: Column[]; onSort?: (key: Key) => void }) {
  const selection = useRowSelection();
  const [sort, setSort] = useState<Sort<Key>>({ key: 'name', dir: 'asc' });
  return (
    <>
      <p>{selection.picked.size} picked</p>
      <DataTable
        label="People"
        rows={ROWS}
        rowId={(r) => r.id}
        rowName={(r) => r.name}
        first={{ label: 'Name', sort: 'name', cell: (r) => <a href={`/people/${r.id}`}>{r.name}</a> }}
        columns={COLUMNS}
        state={{
          sort,
          toggleSort: (key) => {
            onSort(key);
            setSort((s) => ({ key, dir: s.key === key && s.dir === 'asc' ? 'desc' : 'asc' }));
          },
          columns: { shown: (key) => !hidden.includes(key) },
          selection,
        }}
        actions={(r) => <button type="button">Open {r.name}</button>}
      />
    </>
  );
}

describe('DataTable', () => {
  it('draws a header per shown column, the name as the row header, and the actions last', () => {
    render(<Harness hidden={['city']} />);
    const table = screen.getByRole('table', { name: 'People' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent.replace(/[▲▼]/g, ''))).toEqual([
      '',
      'Name',
      'Score',
      'Seen',
      'Actions',
    ]);
    expect(within(table).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Ann', 'Bo']);
    expect(within(table).queryByText('Austin')).not.toBeInTheDocument();
    expect(within(table).getByText(formatDate('2026-01-10T15:00:00Z'))).toHaveAttribute('datetime', '2026-01-10T15:00:00Z');
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('—');
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(table).getByRole('columnheader', { name: 'Score' })).toHaveAttribute('aria-sort', 'none');
    // Only sortable columns are buttons.
    expect(within(table).queryByRole('button', { name: 'Seen' })).not.toBeInTheDocument();
  });

  it('ticks rows and the page from the header, which shows a partly ticked page', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const header = screen.getByRole('checkbox', { name: 'Select all people on this page' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Ann' }));
    expect(header).toBePartiallyChecked();
    expect(screen.getByText('1 picked')).toBeInTheDocument();
    await user.click(header);
    expect(header).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Bo' })).toBeChecked();
    await user.click(header);
    expect(header).not.toBeChecked();
    expect(screen.getByText('0 picked')).toBeInTheDocument();
  });

  it('is used with the keyboard alone: the frame scrolls, then checkboxes, sort buttons and links in order', async () => {
    const user = userEvent.setup();
    const onSort = vi.fn();
    render(<Harness onSort={onSort} />);
    await user.tab();
    expect(screen.getByRole('region', { name: 'People table' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('checkbox', { name: 'Select all people on this page' })).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.getByText('2 picked')).toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Name' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onSort).toHaveBeenLastCalledWith('name');
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Score' })).toHaveFocus();
    await user.keyboard(' ');
    expect(onSort).toHaveBeenLastCalledWith('score');
    await user.tab();
    expect(screen.getByRole('checkbox', { name: 'Select Ann' })).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.getByText('1 picked')).toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Ann' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Open Ann' })).toHaveFocus();
  });

  it('has no serious or critical accessibility problem, ticked or not', async () => {
    const { container } = render(<Harness hidden={['seen']} />);
    expect(await seriousViolations(container)).toEqual([]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Bo' }));
    expect(await seriousViolations(container)).toEqual([]);
  });
});

describe('ViewToggle', () => {
  it('says which view is shown and asks for the other', async () => {
    const onChange = vi.fn();
    render(<ViewToggle view="table" onChange={onChange} />);
    const group = screen.getByRole('group', { name: 'View' });
    expect(within(group).getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(group).getByRole('button', { name: 'Cards' })).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(within(group).getByRole('button', { name: 'Cards' }));
    expect(onChange).toHaveBeenCalledWith('cards');
  });
});
