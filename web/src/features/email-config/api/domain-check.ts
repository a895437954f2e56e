import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';
import type { DomainCheckLatest } from '@/types/openapi.gen';

import { emailConfigKeys } from './query-keys';

/** A record's verdict: `warn` works but is weaker than it should be; `error` is a failed lookup. */
export type { CheckStatus, RecordCheck } from '@/types/openapi.gen';

/** `GET /api/email/domain-check`: the latest `sender_domain_check` job and, once it succeeded, its verdicts. */
export type DomainCheckState = DomainCheckLatest;

export const getDomainCheck = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<DomainCheckState>('/api/email/domain-check', { signal });

export const useDomainCheck = () =>
  useQuery(queryOptions({ queryKey: emailConfigKeys.domainCheck(), queryFn: ({ signal }) => getDomainCheck({ signal }) }));

/** `POST /api/email/domain-check`: starts a check (the running one, if there is one). */
export const useStartDomainCheck = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<EnqueueResponse>('/api/email/domain-check'),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: emailConfigKeys.domainCheck() }),
  });
};
