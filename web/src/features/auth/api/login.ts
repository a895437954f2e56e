import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { User } from '@/types/api';

import { authKeys } from './query-keys';

export const ADMIN_LOGIN_URL = '/api/admin/login';

export type LoginInput = {
  email: string;
  password: string;
};

export const adminLogin = (input: LoginInput): Promise<User> =>
  api.post<User>(ADMIN_LOGIN_URL, input);

type UseAdminLoginOptions = {
  onSuccess?: (user: User) => void | Promise<void>;
};

/** Signs in an admin session; on success stores the user and refreshes the admin-user query. */
export const useAdminLogin = ({ onSuccess }: UseAdminLoginOptions = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminLogin,
    onSuccess: async (user) => {
      queryClient.setQueryData(authKeys.adminUser(), user);
      queryClient.setQueryData(authKeys.user(), user);
      await queryClient.invalidateQueries({ queryKey: authKeys.adminUser() });
      await onSuccess?.(user);
    },
  });
};
