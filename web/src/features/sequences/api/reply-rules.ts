import { api } from '@/lib/api-client';

import { useSequenceMutation, type Callbacks } from './change-sequence';
import type { ReplyRule } from './types';

export type ReplyRuleInput = Pick<ReplyRule, 'name' | 'triggerType' | 'keywords' | 'action' | 'isActive'>;

const RULES_URL = '/api/reply-rules';
const ruleUrl = (id: string) => `${RULES_URL}/${encodeURIComponent(id)}`;

export const createReplyRule = (body: ReplyRuleInput) => api.post<ReplyRule>(RULES_URL, body);
export const updateReplyRule = ({ id, ...body }: ReplyRuleInput & { id: string }) => api.patch<ReplyRule>(ruleUrl(id), body);
export const deleteReplyRule = (id: string) => api.delete<unknown>(ruleUrl(id));

export const useCreateReplyRule = (cb: Callbacks<ReplyRule>) => useSequenceMutation(createReplyRule, cb);
export const useUpdateReplyRule = (cb: Callbacks<ReplyRule>) => useSequenceMutation(updateReplyRule, cb);
export const useDeleteReplyRule = (cb: Callbacks<unknown>) => useSequenceMutation(deleteReplyRule, cb);
