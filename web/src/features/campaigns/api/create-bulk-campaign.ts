import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { BULK_URL } from './get-bulk-campaigns';
import { campaignsKeys } from './query-keys';
import type { BulkCampaign, TargetFilters } from './types';

export type CreateBulkCampaign = {
  name: string;
  description: string;
  subject: string;
  templateId: string;
  fromEmail: string;
  targetFilters: TargetFilters;
  selectedContactIds?: string[];
  scheduleAt?: string;
};

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
