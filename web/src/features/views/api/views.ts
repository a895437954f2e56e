import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { viewsKeys } from './query-keys';

/** The tables that keep saved views (the api's list). */
export type ViewScreen = 'companies' | 'contacts' | 'customers' | 'discovery-results' | 'invoices';

/** A table's settings as saved: the screen decides what it keeps (filters, hidden columns, sort). */
export type ViewState = Record<string, unknown>;

type ViewsOp = paths['/api/views'];

// `state` is the object the screen saved; its schema says any value (issue 24 §2).
export type SavedView = Omit<ViewsOp['get']['responses'][200]['content']['application/json'][number], 'state'> & { state: ViewState };

// `state` is the screen's object; its schema says only "object" (issue 24 §2).
type SaveViewBody = Omit<NonNullable<ViewsOp['post']['requestBody']>['content']['application/json'], 'state'> & { state: ViewState };

const VIEWS_URL = '/api/views';

export const useViews = (screen: ViewScreen) =>
  useQuery(
    queryOptions({
      queryKey: viewsKeys.screen(screen),
      queryFn: ({ signal }) => api.get<SavedView[]>(VIEWS_URL, { params: { screen }, signal }),
    }),
  );

/** Saves the view, or replaces the user's view of the same name on that table. */
export const useSaveView = (screen: ViewScreen) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; state: ViewState }) => {
      const body: SaveViewBody = { screen, ...input };
      return api.post<SavedView>(VIEWS_URL, body);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: viewsKeys.screen(screen) }),
  });
};

export const useDeleteView = (screen: ViewScreen) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(`${VIEWS_URL}/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: viewsKeys.screen(screen) }),
  });
};
