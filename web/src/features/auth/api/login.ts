import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { User } from '@/types/api';

import { adminUserQueryKey } from './get-admin-user';

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

/** Signs in; on success stores the user and refreshes the admin-user query. */
export const useAdminLogin = ({ onSuccess }: UseAdminLoginOptions = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminLogin,
    onSuccess: async (user) => {
      queryClient.setQueryData(adminUserQueryKey, user);
      await queryClient.invalidateQueries({ queryKey: adminUserQueryKey });
      await onSuccess?.(user);
    },
  });
};
