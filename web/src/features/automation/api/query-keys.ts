/** Query keys of the automation screen; `all` is refreshed after bulk scoring. */
export const automationKeys = {
  all: ['automation'] as const,
  /** One of the overview's six reads (`metrics`, `insights`, …). */
  section: (name: string) => [...automationKeys.all, name] as const,
};
