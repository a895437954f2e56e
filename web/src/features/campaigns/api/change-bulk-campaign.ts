import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { BulkCampaign, BulkRetryStarted, BulkSendStarted } from '@/types/openapi.gen';

import { BULK_URL } from './get-bulk-campaigns';
import { campaignsKeys } from './query-keys';

export type CampaignAction = 'pause' | 'resume' | 'cancel' | 'retry';

/** Pause and cancel answer the campaign; resume and retry the job they start. */
type ChangeAnswer = BulkCampaign | BulkSendStarted | BulkRetryStarted;

/** `POST /api/campaigns/bulk-email/{id}/{pause|resume|cancel|retry}`; resume and retry answer the job they start. */
export const changeBulkCampaign = ({ id, action }: { id: string; action: CampaignAction }) =>
  api.post<ChangeAnswer>(`${BULK_URL}/${encodeURIComponent(id)}/${action}`);

export const useChangeBulkCampaign = ({
  onError,
  onJob,
}: {
  onError: (e: Error) => void;
  /** A job the action started (resume, retry), to follow. */
  onJob: (campaignId: string, jobId: string) => void;
}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeBulkCampaign,
    onSuccess: (r, { id }) => {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
      if ('jobId' in r) onJob(id, r.jobId);
    },
    onError,
  });
};
