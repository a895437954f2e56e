import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { USERS_URL } from './get-users';
import { usersKeys } from './query-keys';
import type { ManagedUser } from './types';

export type NewUserInput = NonNullable<paths['/api/admin/users']['post']['requestBody']>['content']['application/json'];

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
