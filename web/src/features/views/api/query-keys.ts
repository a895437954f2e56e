import type { ViewScreen } from './views';

/** Query keys of saved views, per table. */
export const viewsKeys = {
  all: ['views'] as const,
  screen: (screen: ViewScreen) => [...viewsKeys.all, screen] as const,
};
