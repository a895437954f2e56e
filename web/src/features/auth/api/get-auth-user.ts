import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, nullOn401 } from '@/lib/api-client';
import type { User } from '@/types/api';

import { authKeys } from './query-keys';

export const AUTH_USER_URL = '/api/auth/user';

/** The signed-in user (an ordinary or an admin session), or `null` when not signed in (401). */
export const getAuthUser = ({ signal }: { signal?: AbortSignal } = {}): Promise<User | null> =>
  nullOn401(api.get<User>(AUTH_USER_URL, { signal }));

/** The session the app shell and the login pages decide on. */
export const getAuthUserQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.user(),
    queryFn: ({ signal }) => getAuthUser({ signal }),
    staleTime: 5 * 60 * 1000,
    retry: false,
    refetchOnWindowFocus: false,
  });

export const useAuthUser = () => useQuery(getAuthUserQueryOptions());
