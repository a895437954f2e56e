import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { aiKeys } from './query-keys';
import type { EmailAutomationStatus } from './types';

/** Email capabilities, the automation workflows (sequences) and real campaign figures. */
export const getEmailAutomationStatus = ({ signal }: { signal?: AbortSignal } = {}) => api.get<EmailAutomationStatus>('/api/email-automation/status', { signal });

/** `refetchInterval`: the page's auto-refresh (30 s, or false when it is off). */
export const getEmailAutomationStatusQueryOptions = (refetchInterval: number | false = false) =>
  queryOptions({ queryKey: aiKeys.emailAutomation(), queryFn: ({ signal }) => getEmailAutomationStatus({ signal }), refetchInterval });

export const useEmailAutomationStatus = (refetchInterval: number | false = false) => useQuery(getEmailAutomationStatusQueryOptions(refetchInterval));
