import type { EmailDraftFor, TargetFilters } from './types';

/** Query keys of campaigns, single and bulk; `all` is refreshed after every campaign change. */
export const campaignsKeys = {
  all: ['campaigns'] as const,
  single: () => [...campaignsKeys.all, 'single'] as const,
  bulkAll: () => [...campaignsKeys.all, 'bulk'] as const,
  bulkList: () => [...campaignsKeys.bulkAll(), 'list'] as const,
  bulk: (id: string) => [...campaignsKeys.bulkAll(), id] as const,
  performance: () => [...campaignsKeys.bulkAll(), 'performance'] as const,
  templates: () => [...campaignsKeys.all, 'templates'] as const,
  audience: (filters: TargetFilters) => [...campaignsKeys.all, 'audience', filters] as const,
  audienceContacts: (filters: TargetFilters) => [...campaignsKeys.all, 'audience-contacts', filters] as const,
  mergeFields: () => [...campaignsKeys.all, 'merge-fields'] as const,
  preview: (draft: EmailDraftFor) => [...campaignsKeys.all, 'preview', draft] as const,
  readiness: () => [...campaignsKeys.all, 'readiness'] as const,
};
