import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { voiceKeys } from './query-keys';
import type { VoiceAgent } from './types';

export const VOICE_AGENTS_URL = '/api/kojie/voice-agents';

export const getVoiceAgents = ({ signal }: { signal?: AbortSignal } = {}) => api.get<VoiceAgent[]>(VOICE_AGENTS_URL, { signal });

export const getVoiceAgentsQueryOptions = () =>
  queryOptions({ queryKey: voiceKeys.agents(), queryFn: ({ signal }) => getVoiceAgents({ signal }) });

export const useVoiceAgents = () => useQuery(getVoiceAgentsQueryOptions());
