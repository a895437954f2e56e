import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { SingleCampaignSent, SingleSendInput } from '@/types/openapi.gen';

import { campaignsKeys } from './query-keys';

export type SingleSent = SingleCampaignSent;

/** Sends a single campaign to its audience with the written message (`POST /api/campaigns/{id}/send`). */
export const sendSingleCampaign = ({ id, ...draft }: SingleSendInput & { id: string }) =>
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
