/** Query keys of voice agents and calls; `all` is refreshed after every change. */
export const voiceKeys = {
  all: ['voice'] as const,
  health: ['voice', 'health'] as const,
  agents: ['voice', 'agents'] as const,
  calls: ['voice', 'calls'] as const,
  call: (id: string) => ['voice', 'calls', id] as const,
};
