import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { MergeFields } from '@/types/openapi.gen';

import { campaignsKeys } from './query-keys';

/** The merge fields the renderer fills (`GET /api/email/merge-fields`). */
export const getMergeFields = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<MergeFields>('/api/email/merge-fields', { signal }).then((r) => r.fields);

export const useMergeFields = () =>
  useQuery(queryOptions({ queryKey: campaignsKeys.mergeFields(), queryFn: ({ signal }) => getMergeFields({ signal }), staleTime: Infinity }));
