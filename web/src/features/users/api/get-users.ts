import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { usersKeys } from './query-keys';
import type { ManagedUser } from './types';

export const USERS_URL = '/api/admin/users';

export const getUsers = ({ signal }: { signal?: AbortSignal } = {}) => api.get<ManagedUser[]>(USERS_URL, { signal });

export const getUsersQueryOptions = () =>
  queryOptions({
    queryKey: usersKeys.lists(),
    queryFn: ({ signal }) => getUsers({ signal }),
  });

export const useUsers = () => useQuery(getUsersQueryOptions());
