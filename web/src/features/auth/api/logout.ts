import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { authKeys } from './query-keys';

export const ADMIN_LOGOUT_URL = '/api/admin/logout';

export const adminLogout = (): Promise<void> => api.post<undefined>(ADMIN_LOGOUT_URL);

type UseAdminLogoutOptions = {
  onSuccess?: () => void | Promise<void>;
  onError?: (error: Error) => void;
};

/** Signs out; on success forgets the admin and every cached server read. */
export const useAdminLogout = ({ onSuccess, onError }: UseAdminLogoutOptions = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminLogout,
    onSuccess: async () => {
      queryClient.setQueryData(authKeys.adminUser(), null);
      queryClient.setQueryData(authKeys.user(), null);
      await onSuccess?.();
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== authKeys.admin[0],
      });
    },
    onError,
  });
};
