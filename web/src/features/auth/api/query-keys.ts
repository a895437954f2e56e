/**
 * Query keys of the session. The admin's keys have their own root, `admin`: signing out keeps the
 * queries under it and removes every other cached read.
 */
export const authKeys = {
  all: ['auth'] as const,
  user: () => [...authKeys.all, 'user'] as const,
  admin: ['admin'] as const,
  adminUser: () => [...authKeys.admin, 'user'] as const,
};
