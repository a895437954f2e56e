import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { emailConfigKeys } from './query-keys';

export type EmailSummary = {
  totalSent: number;
  delivered: number;
  bounced: number;
  openRate: number;
  clickRate: number;
  replyRate: number;
  /** `openTracked`: emails sent with the open pixel, the open rate's base. */
  figures?: { openTracked: number };
};

/** The last 30 days of outgoing mail (`GET /api/email/analytics`). */
export const getEmailSummary = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<EmailSummary>('/api/email/analytics', { params: { timeframe: 30 }, signal });

export const useEmailSummary = () =>
  useQuery(queryOptions({ queryKey: emailConfigKeys.summary(), queryFn: ({ signal }) => getEmailSummary({ signal }) }));
