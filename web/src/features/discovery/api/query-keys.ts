/** Query keys of prospect discovery (the scan itself is a job: see `jobsKeys`). */
export const discoveryKeys = {
  all: ['discovery'] as const,
  activeScan: () => [...discoveryKeys.all, 'active-scan'] as const,
  sources: () => [...discoveryKeys.all, 'sources'] as const,
  market: () => [...discoveryKeys.all, 'market'] as const,
  companySources: (companyId: string) => [...discoveryKeys.all, 'company-sources', companyId] as const,
};
