import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { VoiceAgentInput } from './create-voice-agent';
import { VOICE_AGENTS_URL } from './get-voice-agents';
import { voiceKeys } from './query-keys';
import type { VoiceAgent } from './types';

export const updateVoiceAgent = ({ id, input }: { id: string; input: Partial<VoiceAgentInput> }) =>
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
