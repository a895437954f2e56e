import { api } from '@/lib/api-client';

import { useSequenceMutation, type Callbacks } from './change-sequence';
import { sequenceUrl, type EnrollResult, type TargetFilters } from './types';

/** Either picked contacts or the targeting filters (the server also applies the sequence's rules). */
export type EnrollInput = { contactIds: string[] } | { targetFilters: TargetFilters };

export const enrollContacts = ({ sequenceId, ...body }: EnrollInput & { sequenceId: string }) =>
  api.post<EnrollResult>(`${sequenceUrl(sequenceId)}/enrollments`, body);

export const unenroll = ({ sequenceId, enrollmentId }: { sequenceId: string; enrollmentId: string }) =>
  api.delete<unknown>(`${sequenceUrl(sequenceId)}/enrollments/${encodeURIComponent(enrollmentId)}`);

export const useEnrollContacts = (cb: Callbacks<EnrollResult>) => useSequenceMutation(enrollContacts, cb);
export const useUnenroll = (cb: Callbacks<unknown>) => useSequenceMutation(unenroll, cb);
