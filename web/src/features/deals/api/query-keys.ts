import type { DealStage } from './stages';

/** Query keys of the sales pipeline; `all` is refreshed after every deal change. */
export const dealsKeys = {
  all: ['deals'] as const,
  /** The board's columns with their first page of deals. */
  board: () => [...dealsKeys.all, 'board'] as const,
  /** The further pages of one board column, loaded on demand. */
  column: (stage: DealStage) => [...dealsKeys.board(), stage] as const,
  metrics: () => [...dealsKeys.all, 'pipeline-metrics'] as const,
  prospects: () => [...dealsKeys.all, 'prospects'] as const,
  detail: (id: string) => [...dealsKeys.all, 'detail', id] as const,
};
