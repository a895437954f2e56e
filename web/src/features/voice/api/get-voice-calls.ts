import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { voiceKeys } from './query-keys';
import type { VoiceCall } from './types';

export const VOICE_CALLS_URL = '/api/kojie/calls';

/** Every call, newest first. */
export const getVoiceCalls = ({ signal }: { signal?: AbortSignal } = {}) => api.get<VoiceCall[]>(VOICE_CALLS_URL, { signal });

export const getVoiceCallsQueryOptions = () =>
  queryOptions({ queryKey: voiceKeys.calls(), queryFn: ({ signal }) => getVoiceCalls({ signal }) });

export const useVoiceCalls = () => useQuery(getVoiceCallsQueryOptions());
