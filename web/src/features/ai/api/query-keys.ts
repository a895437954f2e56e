/** Query keys of the AI screens. */
export const aiKeys = {
  all: ['ai'] as const,
  analytics: ['ai', 'analytics'] as const,
  mcp: ['ai', 'mcp-status'] as const,
  emailAutomation: ['ai', 'email-automation'] as const,
  automationPreview: ['ai', 'automation-preview'] as const,
};
