import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { voiceKeys } from './query-keys';
import type { VoiceHealth } from './types';

/** Whether calls go to a voice API ('connected') or are simulated ('demo'). */
export const getVoiceHealth = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<VoiceHealth>('/api/kojie/health', { signal });

export const getVoiceHealthQueryOptions = () =>
  queryOptions({ queryKey: voiceKeys.health(), queryFn: ({ signal }) => getVoiceHealth({ signal }) });

export const useVoiceHealth = () => useQuery(getVoiceHealthQueryOptions());
