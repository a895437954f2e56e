import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { User } from '@/types/api';

import type { LoginInput } from './login';
import { authKeys } from './query-keys';

export const USER_LOGIN_URL = '/api/login';

export const userLogin = (input: LoginInput): Promise<User> => api.post<User>(USER_LOGIN_URL, input);

type UseUserLoginOptions = {
  onSuccess?: (user: User) => void | Promise<void>;
};

/** Signs in an ordinary session; on success stores the user as the session's. */
export const useUserLogin = ({ onSuccess }: UseUserLoginOptions = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: userLogin,
    onSuccess: async (user) => {
      queryClient.setQueryData(authKeys.user(), user);
      await onSuccess?.(user);
    },
  });
};
