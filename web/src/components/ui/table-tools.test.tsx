import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { useRowSelection } from './table-tools';

const PAGE = ['a', 'b', 'c'];

describe('useRowSelection', () => {
  it('ticks rows one by one and tells the header how much of the page is ticked', () => {
    const { result } = renderHook(() => useRowSelection());
    expect(result.current.ticks(PAGE)).toBe('none');
    act(() => result.current.toggle('a', PAGE));
    expect(result.current.ticks(PAGE)).toBe('some');
    act(() => result.current.toggle('b', PAGE));
    act(() => result.current.toggle('c', PAGE));
    expect(result.current.ticks(PAGE)).toBe('all');
    act(() => result.current.toggle('b', PAGE));
    expect([...result.current.picked]).toEqual(['a', 'c']);
    expect(result.current.ticks([])).toBe('none');
  });

  it('the header ticks the rest of the page, then unticks the page and keeps other pages', () => {
    const { result } = renderHook(() => useRowSelection());
    act(() => result.current.toggle('z', ['z']));
    act(() => result.current.toggle('a', PAGE));
    act(() => result.current.togglePage(PAGE));
    expect([...result.current.picked]).toEqual(['z', 'a', 'b', 'c']);
    act(() => result.current.togglePage(PAGE));
    expect([...result.current.picked]).toEqual(['z']);
  });

  it('"all matching" ticks every row; unticking one keeps the rest of the page, the header clears it all', () => {
    const { result } = renderHook(() => useRowSelection());
    act(() => result.current.selectAllMatching());
    expect(result.current.isPicked('anything')).toBe(true);
    expect(result.current.ticks(PAGE)).toBe('all');
    act(() => result.current.toggle('b', PAGE));
    expect(result.current.allMatching).toBe(false);
    expect([...result.current.picked]).toEqual(['a', 'c']);

    act(() => result.current.selectAllMatching());
    act(() => result.current.togglePage(PAGE));
    expect(result.current.allMatching).toBe(false);
    expect(result.current.picked.size).toBe(0);
  });

  it('"select page" adds the page to what is ticked and leaves "all matching"', () => {
    const { result } = renderHook(() => useRowSelection());
    act(() => result.current.toggle('z', ['z']));
    act(() => result.current.selectAllMatching());
    act(() => result.current.selectPage(PAGE));
    expect(result.current.allMatching).toBe(false);
    expect([...result.current.picked]).toEqual(['z', 'a', 'b', 'c']);
    act(() => result.current.clear());
    expect(result.current.picked.size).toBe(0);
  });
});
