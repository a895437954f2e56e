/** Query keys of the accounts an admin manages; `all` is refreshed after every change. */
export const usersKeys = {
  all: ['users'] as const,
  lists: () => [...usersKeys.all, 'list'] as const,
};
