/** Query keys of voice agents and calls; `all` is refreshed after every change. */
export const voiceKeys = {
  all: ['voice'] as const,
  health: () => [...voiceKeys.all, 'health'] as const,
  agents: () => [...voiceKeys.all, 'agents'] as const,
  calls: () => [...voiceKeys.all, 'calls'] as const,
  call: (id: string) => [...voiceKeys.calls(), id] as const,
};
