import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { VOICE_AGENTS_URL } from './get-voice-agents';
import { voiceKeys } from './query-keys';
import type { VoiceAgent } from './types';

export type VoiceAgentInput = NonNullable<paths['/api/kojie/voice-agents']['post']['requestBody']>['content']['application/json'];

/** `201` with the agent; `422 'Agent name is required'`. */
export const createVoiceAgent = (input: VoiceAgentInput) => api.post<VoiceAgent>(VOICE_AGENTS_URL, input);

export const useCreateVoiceAgent = (options: { onSuccess?: (a: VoiceAgent) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createVoiceAgent,
    onSuccess: async (agent) => {
      await queryClient.invalidateQueries({ queryKey: voiceKeys.agents() });
      options.onSuccess?.(agent);
    },
    onError: options.onError,
  });
};
