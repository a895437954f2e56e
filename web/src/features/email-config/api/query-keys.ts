import type { SuppressionFilters } from './get-suppressions';

/** Query keys of the email configuration screen; `all` covers all of them. */
export const emailConfigKeys = {
  all: ['email-config'] as const,
  summary: () => [...emailConfigKeys.all, 'summary'] as const,
  webhook: () => [...emailConfigKeys.all, 'webhook'] as const,
  domainCheck: () => [...emailConfigKeys.all, 'domain-check'] as const,
  suppressions: () => [...emailConfigKeys.all, 'suppressions'] as const,
  suppressionList: (filters: SuppressionFilters) => [...emailConfigKeys.suppressions(), filters] as const,
};
