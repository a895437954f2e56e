import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Readiness } from '@/types/openapi.gen';

import { campaignsKeys } from './query-keys';

export type { Readiness };

/** What must be in order before email is sent for real (`GET /api/email/readiness`). */
export const getReadiness = ({ signal }: { signal?: AbortSignal } = {}) => api.get<Readiness>('/api/email/readiness', { signal });

export const useReadiness = () => useQuery(queryOptions({ queryKey: campaignsKeys.readiness(), queryFn: ({ signal }) => getReadiness({ signal }) }));
