import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { USERS_URL } from './get-users';

type PasswordBody = NonNullable<paths['/api/admin/users/{id}/password']['post']['requestBody']>['content']['application/json'];

/** Sets a new password; the user's sessions end. */
export const resetPassword = ({ id, password }: { id: string; password: string }) => {
  const body: PasswordBody = { password };
  return api.post<undefined>(`${USERS_URL}/${encodeURIComponent(id)}/password`, body);
};

export const useResetPassword = (options: { onSuccess?: () => void } = {}) =>
  useMutation({ mutationFn: resetPassword, onSuccess: options.onSuccess });
