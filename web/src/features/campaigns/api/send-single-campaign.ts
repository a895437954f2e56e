import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignsKeys } from './query-keys';
import type { EmailDraft } from './types';

export type SingleSent = { success: boolean; totalRecipients: number; jobId: string };

/** Sends a single campaign to its audience with the written message (`POST /api/campaigns/{id}/send`). */
export const sendSingleCampaign = ({ id, ...draft }: EmailDraft & { id: string }) =>
  api.post<SingleSent>(`/api/campaigns/${encodeURIComponent(id)}/send`, draft);

export const useSendSingleCampaign = (options: { onSuccess: (r: SingleSent) => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendSingleCampaign,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
      options.onSuccess(r);
    },
    onError: options.onError,
  });
};
