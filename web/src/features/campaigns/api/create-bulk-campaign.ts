import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CampaignBulkInput } from '@/types/openapi.gen';

import { BULK_URL } from './get-bulk-campaigns';
import { campaignsKeys } from './query-keys';
import type { BulkCampaign } from './types';

/** The composer's campaign: `body` is what is sent, `templateId` the template it started from;
 * without `selectedContactIds`, everyone the filters match (the server applies them). */
export type CreateBulkCampaign = CampaignBulkInput;

export const createBulkCampaign = (body: CreateBulkCampaign) => api.post<BulkCampaign>(BULK_URL, body);

export const useCreateBulkCampaign = ({ onSuccess }: { onSuccess: (c: BulkCampaign) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBulkCampaign,
    onSuccess: (c) => {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
      onSuccess(c);
    },
  });
};
