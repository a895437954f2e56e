import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { BulkSendStarted } from '@/types/openapi.gen';

import { BULK_URL } from './get-bulk-campaigns';
import { campaignsKeys } from './query-keys';

export type SendResult = BulkSendStarted;

/** Starts a draft's delivery (a bulk_campaign_send job). */
export const sendBulkCampaign = (id: string) =>
  api.post<SendResult>(`${BULK_URL}/${encodeURIComponent(id)}/send`);

export const useSendBulkCampaign = (options: { onSuccess: (r: SendResult, id: string) => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendBulkCampaign,
    onSuccess: (r, id) => {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
      options.onSuccess(r, id);
    },
    onError: options.onError,
  });
};
