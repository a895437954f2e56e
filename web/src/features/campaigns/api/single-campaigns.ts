import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { SingleCampaign, SingleInput } from '@/types/openapi.gen';

import { campaignsKeys } from './query-keys';
import type { TargetFilters } from './types';

/**
 * A single campaign (seed 002 §3): a draft over its audience until its message is written and sent
 * (as a bulk send to that audience). `active`: made before single campaigns could send.
 */
export type { SingleCampaign };

/** Who a single campaign is for, and the model that writes it, as `POST /api/campaigns` takes them. */
export type Audience = NonNullable<SingleInput['targetAudience']>;
export type AiModel = NonNullable<SingleInput['aiModel']>;

export const AUDIENCES = [
  ['high-value', 'High-value leads (85+)'],
  ['medium-value', 'Medium-value leads (45–84)'],
  ['all-active', 'All active contacts'],
] as const satisfies readonly (readonly [Audience, string])[];
/** The contacts each audience names, as the server selects them (for the preview's contact list). */
export const AUDIENCE_FILTERS: Record<string, TargetFilters> = {
  'high-value': { scoreMin: 85 },
  'medium-value': { scoreMin: 45, scoreMax: 84 },
  'all-active': {},
};
export const AI_MODELS = ['gpt-5', 'claude-4', 'gemini'] as const satisfies readonly AiModel[];

export type NewSingleCampaign = SingleInput;

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
