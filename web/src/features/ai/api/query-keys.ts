/** Query keys of the AI screens; `all` is refreshed after every AI task (usage counts change). */
export const aiKeys = {
  all: ['ai'] as const,
  analytics: () => [...aiKeys.all, 'analytics'] as const,
  mcp: () => [...aiKeys.all, 'mcp-status'] as const,
  emailAutomation: () => [...aiKeys.all, 'email-automation'] as const,
  automationPreview: () => [...aiKeys.all, 'automation-preview'] as const,
};
