import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ComposerPreviewInput, TestQueued } from '@/types/openapi.gen';

export type TestSent = TestQueued;

/** Sends the draft to the signed-in user, marked as a test (`POST /api/email/send-test`). */
export const sendTestEmail = (draft: ComposerPreviewInput) =>
  api.post<TestSent>('/api/email/send-test', draft);

export const useSendTestEmail = ({ onSuccess, onError }: { onSuccess: (r: TestSent) => void; onError: (e: Error) => void }) =>
  useMutation({ mutationFn: sendTestEmail, onSuccess, onError });
