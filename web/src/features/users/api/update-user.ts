import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { USERS_URL } from './get-users';
import { usersKeys } from './query-keys';
import type { ManagedUser } from './types';

/** What to change; absent fields stay as they are. */
export type UserChange = NonNullable<paths['/api/admin/users/{id}']['patch']['requestBody']>['content']['application/json'];

export const updateUser = ({ id, change }: { id: string; change: UserChange }) =>
  api.patch<ManagedUser>(`${USERS_URL}/${encodeURIComponent(id)}`, change);

export const useUpdateUser = (options: {
  onSuccess?: (user: ManagedUser, change: UserChange) => void;
  onError?: (error: Error) => void;
}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: async (user, { change }) => {
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
      options.onSuccess?.(user, change);
    },
    onError: options.onError,
  });
};
