import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, nullOn401 } from '@/lib/api-client';
import type { User } from '@/types/api';

import { authKeys } from './query-keys';

export const ADMIN_USER_URL = '/api/admin/user';

/** The signed-in admin, or `null` when not signed in (401). */
export const getAdminUser = ({ signal }: { signal?: AbortSignal } = {}): Promise<User | null> =>
  nullOn401(api.get<User>(ADMIN_USER_URL, { signal }));

export const getAdminUserQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.adminUser(),
    queryFn: ({ signal }) => getAdminUser({ signal }),
    staleTime: 5 * 60 * 1000,
    retry: false,
    refetchOnWindowFocus: false,
  });

export const useAdminUser = () => useQuery(getAdminUserQueryOptions());
