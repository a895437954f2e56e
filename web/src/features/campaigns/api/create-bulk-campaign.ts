import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { BULK_URL } from './get-bulk-campaigns';
import { campaignsKeys } from './query-keys';
import type { BulkCampaign, TargetFilters } from './types';

export type CreateBulkCampaign = {
  name: string;
  description: string;
  subject: string;
  /** Written in the composer: what is sent. */
  body: string;
  /** The template it started from, if any. */
  templateId?: string;
  fromEmail: string;
  targetFilters: TargetFilters;
  /** Hand-picked contacts; absent: everyone the filters match (the server applies them). */
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
