import type { GetJobsParams } from './get-jobs';

/*
 * Query keys: one convention for every feature.
 *
 * - Each feature with queries has `features/<f>/api/query-keys.ts` exporting one `<f>Keys` object
 *   (`jobsKeys`, `dealsKeys`, …). Nothing else writes a key: `useQuery`, `invalidateQueries`,
 *   `setQueryData` and `useJobOutcome({ invalidate })` all take keys from these objects.
 * - `all` is the feature's root (`['jobs']`); every other key is a function that builds on it:
 *   `lists()`, `list(params)`, `details()`, `detail(id)`, or a named key such as `metrics()`.
 *   Invalidating a prefix (`all`, `lists()`) refreshes everything below it.
 * - A key with another root says why in a comment (e.g. customers and leads live under
 *   `contactsKeys.all` so that a contact change refreshes them; the queue figures are `['queues']`).
 * - eslint (`no-restricted-syntax` in eslint.config.js) refuses an array literal as a `queryKey`
 *   anywhere else (tests excepted).
 */

/** Query keys for the jobs feature and the ops screen, so invalidations stay in one place. */
export const jobsKeys = {
  all: ['jobs'] as const,
  lists: () => [...jobsKeys.all, 'list'] as const,
  list: (params: GetJobsParams) => [...jobsKeys.lists(), params] as const,
  details: () => [...jobsKeys.all, 'detail'] as const,
  detail: (id: string) => [...jobsKeys.details(), id] as const,
  opsDetail: (id: string) => [...jobsKeys.details(), id, 'ops'] as const,
  /** The per-kind queue figures: their own root, refreshed after any job change. */
  queues: ['queues'] as const,
  /** The ops screen's other panels. */
  ops: ['ops'] as const,
  workers: () => [...jobsKeys.ops, 'workers'] as const,
  audit: () => [...jobsKeys.ops, 'audit'] as const,
  history: (minutes: number) => [...jobsKeys.ops, 'history', minutes] as const,
};
