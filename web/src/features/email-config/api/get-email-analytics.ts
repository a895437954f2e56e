import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EmailAnalytics } from '@/types/openapi.gen';

import { emailConfigKeys } from './query-keys';

/** `figures.openTracked`: emails sent with the open pixel, the open rate's base. */
export type EmailSummary = EmailAnalytics;

/** The last 30 days of outgoing mail (`GET /api/email/analytics`). */
export const getEmailSummary = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<EmailSummary>('/api/email/analytics', { params: { timeframe: 30 }, signal });

export const useEmailSummary = () =>
  useQuery(queryOptions({ queryKey: emailConfigKeys.summary(), queryFn: ({ signal }) => getEmailSummary({ signal }) }));
