import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { USERS_URL } from './get-users';

/** Sets a new password; the user's sessions end. */
export const resetPassword = ({ id, password }: { id: string; password: string }) =>
  api.post<undefined>(`${USERS_URL}/${encodeURIComponent(id)}/password`, { password });

export const useResetPassword = (options: { onSuccess?: () => void } = {}) =>
  useMutation({ mutationFn: resetPassword, onSuccess: options.onSuccess });
