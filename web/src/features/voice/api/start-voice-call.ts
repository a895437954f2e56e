import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { voiceKeys } from './query-keys';
import type { CallInput } from './types';

export type CallStarted = paths['/api/kojie/voice-call']['post']['responses'][202]['content']['application/json'];

/** `202`: the `voice_call` job places the call (or records a simulated one without a voice API). */
export const startVoiceCall = (input: CallInput) => api.post<CallStarted>('/api/kojie/voice-call', input);

export const useStartVoiceCall = (options: { onSuccess: (r: CallStarted) => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startVoiceCall,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: voiceKeys.calls() });
      options.onSuccess(r);
    },
    onError: options.onError,
  });
};
