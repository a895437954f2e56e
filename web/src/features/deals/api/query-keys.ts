/** Query keys of the sales pipeline; `all` is refreshed after every deal change. */
export const dealsKeys = {
  all: ['deals'] as const,
  list: () => [...dealsKeys.all, 'list'] as const,
  metrics: () => [...dealsKeys.all, 'pipeline-metrics'] as const,
  prospects: () => [...dealsKeys.all, 'prospects'] as const,
};
