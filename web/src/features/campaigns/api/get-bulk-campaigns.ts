import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignsKeys } from './query-keys';
import type { BulkCampaign } from './types';

export const BULK_URL = '/api/campaigns/bulk-email';
/** While a campaign sends, the list and its progress refresh every 2 s. */
export const SENDING_REFRESH_MS = 2000;

export const getBulkCampaigns = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<{ campaigns: BulkCampaign[] }>(BULK_URL, { params: { limit: 200 }, signal }).then((r) => r.campaigns);

export const getBulkCampaignsQueryOptions = () =>
  queryOptions({
    queryKey: campaignsKeys.bulkList(),
    queryFn: ({ signal }) => getBulkCampaigns({ signal }),
    refetchInterval: (query) =>
      query.state.data?.some((c) => c.status === 'sending' || c.status === 'scheduled') ? SENDING_REFRESH_MS : false,
    refetchIntervalInBackground: false,
  });

export const useBulkCampaigns = () => useQuery(getBulkCampaignsQueryOptions());
