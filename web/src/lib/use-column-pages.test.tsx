import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { createQueryClient } from '@/app/query-client';
import type { Page } from '@/types/api';

import { useColumnPages } from './use-column-pages';

type Card = { id: string };

const KEY = ['things', 'board', 'todo'];
const cards = (...ids: string[]): Card[] => ids.map((id) => ({ id }));
const ids = (items: Card[]) => items.map((c) => c.id);

/** A column held "on the server": pages of `size` from any offset, with the column's total. */
function serverColumn(initial: string[], size = 2) {
  const column = { ids: [...initial] };
  const fetchPage = vi.fn((offset: number): Promise<Page<Card>> =>
    Promise.resolve({ items: cards(...column.ids.slice(offset, offset + size)), total: column.ids.length, exact: true }),
  );
  return { column, fetchPage };
}

function renderColumn(firstPage: Card[], total: number, fetchPage: (offset: number) => Promise<Page<Card>>, queryClient = createQueryClient()) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const view = renderHook(() => useColumnPages({ queryKey: KEY, firstPage, total, fetchPage }), { wrapper });
  return { ...view, queryClient };
}

describe('useColumnPages', () => {
  it('fetches nothing until asked, then pages on from the end of the first page until the total', async () => {
    const { fetchPage } = serverColumn(['a', 'b', 'c', 'd', 'e', 'f']);
    const first = cards('a', 'b');
    const { result, queryClient } = renderColumn(first, 6, fetchPage);
    expect(ids(result.current.items)).toEqual(['a', 'b']);
    expect(result.current.hasMore).toBe(true);
    // An invalidation before any page was asked for fetches nothing.
    await act(() => queryClient.invalidateQueries({ queryKey: ['things'] }));
    expect(fetchPage).not.toHaveBeenCalled();

    let more: boolean | undefined;
    await act(async () => {
      more = await result.current.showMore();
    });
    expect(more).toBe(true);
    await waitFor(() => expect(ids(result.current.items)).toEqual(['a', 'b', 'c', 'd']));
    await act(async () => {
      more = await result.current.showMore();
    });
    expect(more).toBe(false);
    await waitFor(() => expect(ids(result.current.items)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']));
    expect(result.current.hasMore).toBe(false);
    expect(fetchPage.mock.calls.map(([offset]) => offset)).toEqual([2, 4]);
  });

  it('has no "more" when the first page is the whole column', () => {
    const { fetchPage } = serverColumn(['a']);
    const { result } = renderColumn(cards('a'), 1, fetchPage);
    expect(result.current.hasMore).toBe(false);
  });

  it('lists a card once when a change shifted it into the next page', async () => {
    const { column, fetchPage } = serverColumn(['a', 'b', 'c', 'd']);
    const { result } = renderColumn(cards('a', 'b'), 4, fetchPage);
    column.ids.unshift('z'); // a new card on top since the board was fetched: b is now at offset 2
    await act(() => result.current.showMore());
    await waitFor(() => expect(ids(result.current.items)).toEqual(['a', 'b', 'c']));
  });

  it('refetches the pages shown when the feature is invalidated', async () => {
    const { column, fetchPage } = serverColumn(['a', 'b', 'c', 'd', 'e']);
    const { result, queryClient } = renderColumn(cards('a', 'b'), 5, fetchPage);
    await act(() => result.current.showMore());
    await waitFor(() => expect(result.current.items).toHaveLength(4));
    await act(() => result.current.showMore());
    await waitFor(() => expect(ids(result.current.items)).toEqual(['a', 'b', 'c', 'd', 'e']));

    column.ids.splice(column.ids.indexOf('d'), 1); // d moved to another column
    await act(() => queryClient.invalidateQueries({ queryKey: ['things'] }));
    await waitFor(() => expect(ids(result.current.items)).toEqual(['a', 'b', 'c', 'e']));
    expect(result.current.hasMore).toBe(false);
  });

  it('shows the pages cached from an earlier visit again, and keeps them fresh', async () => {
    const { column, fetchPage } = serverColumn(['a', 'b', 'c']);
    const first = cards('a', 'b');
    const earlier = renderColumn(first, 3, fetchPage);
    await act(() => earlier.result.current.showMore());
    await waitFor(() => expect(earlier.result.current.items).toHaveLength(3));
    earlier.unmount();

    const { result } = renderColumn(first, 3, fetchPage, earlier.queryClient);
    expect(ids(result.current.items)).toEqual(['a', 'b', 'c']);
    expect(result.current.hasMore).toBe(false);
    column.ids.push('d');
    await act(() => earlier.queryClient.invalidateQueries({ queryKey: ['things'] }));
    await waitFor(() => expect(ids(result.current.items)).toEqual(['a', 'b', 'c', 'd']));
    expect(fetchPage.mock.calls.map(([offset]) => offset)).toEqual([2, 2]);
  });
});
