import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { useSequenceMutation, type Callbacks } from './change-sequence';
import { sequenceUrl, type EnrollResult } from './types';

/** Picked contacts or the targeting filters (the server also applies the sequence's rules). */
export type EnrollInput = NonNullable<paths['/api/email-sequences/{id}/enrollments']['post']['requestBody']>['content']['application/json'];

export const enrollContacts = ({ sequenceId, ...body }: EnrollInput & { sequenceId: string }) =>
  api.post<EnrollResult>(`${sequenceUrl(sequenceId)}/enrollments`, body);

export const unenroll = ({ sequenceId, enrollmentId }: { sequenceId: string; enrollmentId: string }) =>
  api.delete<unknown>(`${sequenceUrl(sequenceId)}/enrollments/${encodeURIComponent(enrollmentId)}`);

export const useEnrollContacts = (cb: Callbacks<EnrollResult>) => useSequenceMutation(enrollContacts, cb);
export const useUnenroll = (cb: Callbacks<unknown>) => useSequenceMutation(unenroll, cb);
