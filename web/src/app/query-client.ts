import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

/**
 * Data defaults (seed §7.1): no retry, no refetch on window focus, no refetch
 * interval, cached data never stale unless a query says otherwise.
 */
export const queryConfig = {
  queries: {
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig });
}
