import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { sequencesKeys } from './query-keys';
import type { ReplyRule } from './types';

export const getReplyRules = ({ signal }: { signal?: AbortSignal } = {}) => api.get<ReplyRule[]>('/api/reply-rules', { signal });

export const useReplyRules = () =>
  useQuery(queryOptions({ queryKey: sequencesKeys.rules(), queryFn: ({ signal }) => getReplyRules({ signal }) }));
