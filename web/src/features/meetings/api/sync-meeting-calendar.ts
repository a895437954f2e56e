import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

export type CalendarAction = 'sync' | 'update' | 'remove';
/** The 202 of sync, update and remove alike: the `calendar_sync` job to follow. */
export type CalendarSyncResponse =
  paths['/api/meetings/{id}/sync-to-calendar']['post']['responses'][202]['content']['application/json'];

const base = (id: string) => `/api/meetings/${encodeURIComponent(id)}`;

/**
 * The seed's three calls; each answers 202 with the `calendar_sync` job to follow. The server uses
 * the grant it holds, so the seed's `tokens` body is sent empty.
 */
export const syncMeetingCalendar = ({ id, action }: { id: string; action: CalendarAction }) => {
  switch (action) {
    case 'sync':
      return api.post<CalendarSyncResponse>(`${base(id)}/sync-to-calendar`, {});
    case 'update':
      return api.put<CalendarSyncResponse>(`${base(id)}/update-calendar`, {});
    case 'remove':
      return api.delete<CalendarSyncResponse>(`${base(id)}/remove-from-calendar`);
  }
};

export const useSyncMeetingCalendar = (options: {
  onSuccess?: (r: CalendarSyncResponse, input: { id: string; action: CalendarAction }) => void;
  onError?: (e: Error, input: { id: string; action: CalendarAction }) => void;
}) => useMutation({ mutationFn: syncMeetingCalendar, ...options });
