import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { VOICE_AGENTS_URL } from './get-voice-agents';
import { voiceKeys } from './query-keys';
import type { VoiceAgent } from './types';

export type VoiceAgentChange = NonNullable<paths['/api/kojie/voice-agents/{id}']['patch']['requestBody']>['content']['application/json'];

export const updateVoiceAgent = ({ id, input }: { id: string; input: VoiceAgentChange }) =>
  api.patch<VoiceAgent>(`${VOICE_AGENTS_URL}/${encodeURIComponent(id)}`, input);

export const useUpdateVoiceAgent = (options: { onSuccess?: (a: VoiceAgent) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVoiceAgent,
    onSuccess: async (agent) => {
      await queryClient.invalidateQueries({ queryKey: voiceKeys.agents() });
      options.onSuccess?.(agent);
    },
    onError: options.onError,
  });
};
