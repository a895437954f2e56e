import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { AuditEntry } from '@/types/api';

import { JOBS_REFRESH_MS } from './get-jobs';
import { jobsKeys } from './query-keys';

export const AUDIT_URL = '/api/ops/audit';
export const AUDIT_SHOWN = 20;

export const useAudit = () =>
  useQuery({
    queryKey: jobsKeys.audit(),
    queryFn: ({ signal }) => api.get<AuditEntry[]>(AUDIT_URL, { params: { limit: AUDIT_SHOWN }, signal }),
    refetchInterval: JOBS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
