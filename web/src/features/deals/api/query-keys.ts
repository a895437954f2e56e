/** Query keys of the sales pipeline; `all` is refreshed after every deal change. */
export const dealsKeys = {
  all: ['deals'] as const,
  list: ['deals', 'list'] as const,
  metrics: ['deals', 'pipeline-metrics'] as const,
  prospects: ['deals', 'prospects'] as const,
};
