import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { CONTACTS_URL } from './get-contacts';
import { contactsKeys } from './query-keys';

export type EmailHistory = {
  totalEvents: number;
  campaigns: { id: string; name: string; status: string; totalEvents: number; lastEvent: { timestamp: string } }[];
  /** sent, delivered, opened, clicked, replied, bounced */
  recentEvents: { eventType: string; timestamp: string }[];
  /** The contact's newest messages (direct emails, campaigns, sequences), from the moment they are queued. */
  messages?: EmailHistoryMessage[];
  /** This contact's counts, as every screen counts them (docs/figures.md). */
  figures?: EmailFigureCounts;
};

export type EmailFigureCounts = {
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  replied: number;
  bounced: number;
};

/** status: queued, sending, sent, deferred, failed, suppressed, unknown or cancelled. */
export type EmailHistoryMessage = {
  id: string;
  subject: string | null;
  campaignName: string | null;
  to: string;
  status: string;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
  openedAt: string | null;
  repliedAt: string | null;
};

/** Recent email events shown in the history dialog (seed 001 §9). */
export const RECENT_EVENTS_SHOWN = 10;

export const getEmailHistory = (id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<EmailHistory>(`${CONTACTS_URL}/${encodeURIComponent(id)}/email-history`, { signal });

export const useEmailHistory = (id: string) =>
  useQuery(
    queryOptions({
      queryKey: contactsKeys.emailHistory(id),
      queryFn: ({ signal }) => getEmailHistory(id, { signal }),
    }),
  );
