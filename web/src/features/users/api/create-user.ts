import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { USERS_URL } from './get-users';
import { usersKeys } from './query-keys';
import type { ManagedUser, Role } from './types';

export type NewUserInput = {
  email: string;
  firstName: string | null;
  lastName: string | null;
  password: string;
  role: Role;
};

export const createUser = (input: NewUserInput) => api.post<ManagedUser>(USERS_URL, input);

export const useCreateUser = (options: { onSuccess?: (user: ManagedUser) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: async (user) => {
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
      options.onSuccess?.(user);
    },
  });
};
