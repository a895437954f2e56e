import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { useSequenceMutation, type Callbacks } from './change-sequence';
import type { ReplyRule } from './types';

export type ReplyRuleInput = NonNullable<paths['/api/reply-rules']['post']['requestBody']>['content']['application/json'];

const RULES_URL = '/api/reply-rules';
const ruleUrl = (id: string) => `${RULES_URL}/${encodeURIComponent(id)}`;

export const createReplyRule = (body: ReplyRuleInput) => api.post<ReplyRule>(RULES_URL, body);
export const updateReplyRule = ({ id, ...body }: ReplyRuleInput & { id: string }) => api.patch<ReplyRule>(ruleUrl(id), body);
export const deleteReplyRule = (id: string) => api.delete<unknown>(ruleUrl(id));

export const useCreateReplyRule = (cb: Callbacks<ReplyRule>) => useSequenceMutation(createReplyRule, cb);
export const useUpdateReplyRule = (cb: Callbacks<ReplyRule>) => useSequenceMutation(updateReplyRule, cb);
export const useDeleteReplyRule = (cb: Callbacks<unknown>) => useSequenceMutation(deleteReplyRule, cb);
