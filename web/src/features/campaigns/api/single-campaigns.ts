import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignsKeys } from './query-keys';
import type { CampaignWaiting, TargetFilters } from './types';

/**
 * A single campaign (seed 002 §3): a draft over its audience until its message is written and sent
 * (as a bulk send to that audience). `active`: made before single campaigns could send.
 */
export type SingleCampaign = {
  id: string;
  name: string;
  description: string | null;
  status: 'draft' | 'sending' | 'sent' | 'failed' | 'paused' | 'cancelled' | 'active' | 'completed';
  subject: string | null;
  failure?: string;
  waiting?: CampaignWaiting;
  targetAudience: string | null;
  aiModel: string | null;
  emailsSent: number;
  opens: number;
  /** Sent with the open pixel: the open rate's base (0: opens were not tracked). */
  openTracked: number;
  openRate: number;
  totalRecipients: number;
  startDate: string | null;
  endDate: string | null;
  createdAt: string;
};

export const AUDIENCES = [
  ['high-value', 'High-value leads (85+)'],
  ['medium-value', 'Medium-value leads (45–84)'],
  ['all-active', 'All active contacts'],
] as const;
/** The contacts each audience names, as the server selects them (for the preview's contact list). */
export const AUDIENCE_FILTERS: Record<string, TargetFilters> = {
  'high-value': { scoreMin: 85 },
  'medium-value': { scoreMin: 45, scoreMax: 84 },
  'all-active': {},
};
export const AI_MODELS = ['gpt-5', 'claude-4', 'gemini'] as const;

export type NewSingleCampaign = { name: string; description: string; targetAudience: string; aiModel: string };

export const getSingleCampaigns = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<SingleCampaign[]>('/api/campaigns', { signal });

export const useSingleCampaigns = () =>
  useQuery(queryOptions({ queryKey: campaignsKeys.single(), queryFn: ({ signal }) => getSingleCampaigns({ signal }) }));

export const createSingleCampaign = (body: NewSingleCampaign) => api.post<SingleCampaign>('/api/campaigns', body);

export const useCreateSingleCampaign = (options: { onSuccess: (c: SingleCampaign) => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSingleCampaign,
    onSuccess: (c) => {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
      options.onSuccess(c);
    },
    onError: options.onError,
  });
};
