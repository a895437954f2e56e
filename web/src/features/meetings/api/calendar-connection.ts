import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CalendarConnection } from '@/types/api';

import { calendarKeys } from './query-keys';

export const CALENDAR_CONNECTION_URL = '/api/calendar/connection';

export const getCalendarConnection = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<CalendarConnection>(CALENDAR_CONNECTION_URL, { signal });

export const useCalendarConnection = () =>
  useQuery(
    queryOptions({
      queryKey: calendarKeys.connection(),
      queryFn: ({ signal }) => getCalendarConnection({ signal }),
      staleTime: 30_000,
    }),
  );

/** `DELETE /api/calendar/connection`: the server forgets the grant. */
export const useDisconnectCalendar = ({ onSuccess }: { onSuccess?: () => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<undefined>(CALENDAR_CONNECTION_URL),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: calendarKeys.connection() });
      onSuccess?.();
    },
  });
};
