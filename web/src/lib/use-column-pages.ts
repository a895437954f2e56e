import { infiniteQueryOptions, useInfiniteQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useMemo, useState } from 'react';

import type { Page } from '@/types/api';

type ColumnPagesOptions<T> = {
  /** Where the column's further pages are cached: keep it under the feature's `all` key, so the
   * invalidation after every change refetches the pages already shown. */
  queryKey: QueryKey;
  /** The cards the board brought with it (the column's first page). */
  firstPage: readonly T[];
  /** Every card in the column, as the board counts them. */
  total: number;
  /** The column's cards from `offset` on, in the board's order, with their `X-Total-Count`. */
  fetchPage: (offset: number, signal: AbortSignal) => Promise<Page<T>>;
};

export type ColumnPages<T> = {
  /** The first page and every page shown since, each card once. */
  items: T[];
  /** The column has cards not shown yet. */
  hasMore: boolean;
  /** A further page is on its way (or the loaded ones are being refetched). */
  isLoadingMore: boolean;
  /** Why the last further page failed, until one succeeds. */
  error: Error | null;
  /** Loads the next page; resolves to whether cards remain after it. */
  showMore: () => Promise<boolean>;
};

/** The offset of the page after `last` (fetched at `lastOffset`), or undefined when it was the end. */
const nextOffset = <T>(last: Page<T>, lastOffset: number) => {
  const next = lastOffset + last.items.length;
  return last.items.length > 0 && next < last.total ? next : undefined;
};

/**
 * A board column whose first page comes with the board and whose further pages load on demand.
 * Nothing is fetched until `showMore`; from then on the pages shown are one infinite query under
 * `queryKey`, so invalidating the feature refetches them with the board. A card moved between two
 * fetches can shift the offsets, so a card already shown is not listed twice.
 */
export function useColumnPages<T extends { id: string }>({
  queryKey,
  firstPage,
  total,
  fetchPage,
}: ColumnPagesOptions<T>): ColumnPages<T> {
  const queryClient = useQueryClient();
  const options = infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: firstPage.length,
    getNextPageParam: (last: Page<T>, _pages: Page<T>[], lastOffset: number) => nextOffset(last, lastOffset),
  });
  // Pages still cached from an earlier visit are shown again, and so kept fresh.
  const [wanted, setWanted] = useState(() => queryClient.getQueryData(queryKey) !== undefined);
  const query = useInfiniteQuery({ ...options, enabled: wanted });

  const items = useMemo(() => {
    const seen = new Set(firstPage.map((item) => item.id));
    const all = [...firstPage];
    for (const page of query.data?.pages ?? []) {
      for (const item of page.items) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        all.push(item);
      }
    }
    return all;
  }, [firstPage, query.data]);

  const showMore = async () => {
    if (query.data) return (await query.fetchNextPage()).hasNextPage;
    setWanted(true);
    try {
      const data = await queryClient.infiniteQuery(options);
      const last = data.pages.at(-1);
      const lastOffset = data.pageParams.at(-1);
      return last !== undefined && lastOffset !== undefined && nextOffset(last, lastOffset) !== undefined;
    } catch {
      return true; // the error is shown from the query's state
    }
  };

  return {
    items,
    hasMore: query.data ? query.hasNextPage : firstPage.length < total,
    isLoadingMore: query.isFetching,
    error: query.error,
    showMore,
  };
}
