import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';

import { useListTable } from './use-list-table';

const OPTIONS = {
  table: 'people',
  columns: ['city', 'email'],
  filters: ['q', 'status'],
  sorts: { created: 'desc', name: 'asc', score: 'desc' },
  initial: { key: 'created', dir: 'desc' },
} as const;

/** The hook at `address`, with the address it leaves. */
function setup(address: string) {
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[address]}>{children}</MemoryRouter>;
  const { result } = renderHook(() => ({ list: useListTable(OPTIONS), location: useLocation() }), { wrapper });
  return { result, search: () => result.current.location.search };
}

describe('useListTable', () => {
  it("reads the address: no sort is the server's own order, an unknown key or direction is left out", () => {
    expect(setup('/people').result.current.list).toMatchObject({
      filters: { q: '', status: '' },
      filtered: false,
      offset: 0,
      view: 'table',
      sort: { key: 'created', dir: 'desc' },
      serverSort: {},
    });
    expect(setup('/people?status=hot&sort=name&offset=50&view=cards').result.current.list).toMatchObject({
      filters: { q: '', status: 'hot' },
      filtered: true,
      offset: 50,
      view: 'cards',
      sort: { key: 'name', dir: 'asc' },
      serverSort: { sort: 'name', dir: 'asc' },
    });
    expect(setup('/people?sort=password&dir=sideways&offset=-5').result.current.list).toMatchObject({
      sort: { key: 'created', dir: 'desc' },
      serverSort: {},
      offset: 0,
    });
    expect(setup('/people?sort=score&dir=sideways').result.current.list.serverSort).toEqual({ sort: 'score', dir: 'desc' });
  });

  it('sorting starts a column in its own direction, flips it the second time and goes back to the first page', () => {
    const { result, search } = setup('/people?status=hot&offset=100');
    act(() => result.current.list.toggleSort('score'));
    expect(search()).toBe('?status=hot&sort=score&dir=desc');
    act(() => result.current.list.toggleSort('score'));
    expect(search()).toBe('?status=hot&sort=score&dir=asc');
    // The server's own order flips too.
    const fresh = setup('/people');
    act(() => fresh.result.current.list.toggleSort('created'));
    expect(fresh.search()).toBe('?sort=created&dir=asc');
  });

  it('a filter clears the page and the selection; clearing the filters keeps the order and the view', () => {
    const { result, search } = setup('/people?q=ann&sort=name&dir=desc&view=cards&offset=50');
    act(() => result.current.list.selection.toggle('p1', ['p1']));
    act(() => result.current.list.setFilter('status', 'hot'));
    expect(search()).toBe('?q=ann&sort=name&dir=desc&view=cards&status=hot');
    expect(result.current.list.selection.picked.size).toBe(0);
    act(() => result.current.list.setOffset(50));
    expect(search()).toBe('?q=ann&sort=name&dir=desc&view=cards&status=hot&offset=50');
    act(() => result.current.list.clearFilters());
    expect(search()).toBe('?sort=name&dir=desc&view=cards');
    act(() => result.current.list.setView('table'));
    expect(search()).toBe('?sort=name&dir=desc');
  });

  it('after a delete that empties its page, steps back a page (to the first after "all matching")', () => {
    const { result, search } = setup('/people?q=ann&offset=100');
    act(() => result.current.list.selection.toggle('a', ['a', 'b']));
    act(() => result.current.list.afterDelete(['a', 'b'], 50));
    expect(search()).toBe('?q=ann&offset=100');
    act(() => result.current.list.selection.togglePage(['a', 'b']));
    act(() => result.current.list.afterDelete(['a', 'b'], 50));
    expect(search()).toBe('?q=ann&offset=50');
    expect(result.current.list.selection.picked.size).toBe(0);
    act(() => result.current.list.selection.selectAllMatching());
    act(() => result.current.list.afterDelete(['c'], 50));
    expect(search()).toBe('?q=ann');
    expect(result.current.list.selection.allMatching).toBe(false);
  });

  it("keeps a saved view's settings and brings them back, ignoring what it does not know", () => {
    const { result, search } = setup('/people?status=hot&sort=score&dir=asc');
    act(() => result.current.list.columns.toggle('email'));
    expect(result.current.list.viewState()).toEqual({
      filters: { status: 'hot' },
      sort: { key: 'score', dir: 'asc' },
      view: 'table',
      hidden: ['email'],
    });
    // Hidden columns are remembered in this browser, for every view of the table.
    expect(setup('/people').result.current.list.viewState()).toEqual({ filters: {}, sort: null, view: 'table', hidden: ['email'] });

    act(() => result.current.list.selection.toggle('p1', ['p1']));
    act(() =>
      result.current.list.applyView({
        filters: { q: 'bo', region: 'texas', status: 7 },
        sort: { key: 'password', dir: 'asc' },
        view: 'cards',
        hidden: ['city', 'nope'],
      }),
    );
    expect(search()).toBe('?q=bo&view=cards');
    expect(result.current.list.selection.picked.size).toBe(0);
    expect(result.current.list.columns.shown('city')).toBe(false);
    expect(result.current.list.columns.shown('email')).toBe(true);
    expect(localStorage.getItem('prospector.columns.people')).toBe('["city"]');

    act(() => result.current.list.applyView({ sort: { key: 'name' } }));
    expect(search()).toBe('?sort=name');
    expect(result.current.list.sort).toEqual({ key: 'name', dir: 'asc' });
  });
});
