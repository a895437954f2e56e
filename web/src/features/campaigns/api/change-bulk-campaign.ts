import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { BULK_URL } from './get-bulk-campaigns';
import { campaignsKeys } from './query-keys';

export type CampaignAction = 'pause' | 'resume' | 'cancel';

/** `POST /api/campaigns/bulk-email/{id}/{pause|resume|cancel}`. */
export const changeBulkCampaign = ({ id, action }: { id: string; action: CampaignAction }) =>
  api.post<unknown>(`${BULK_URL}/${encodeURIComponent(id)}/${action}`);

export const useChangeBulkCampaign = ({ onError }: { onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeBulkCampaign,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: campaignsKeys.all }),
    onError,
  });
};
