import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { VOICE_CALLS_URL } from './get-voice-calls';
import { voiceKeys } from './query-keys';
import { FINISHED_CALL_STATUSES, type VoiceCall } from './types';

/** How often a call that has not ended is read again (the voice API moves it by callback). */
export const CALL_POLL_MS = 2000;

export const getVoiceCall = (id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<VoiceCall>(`${VOICE_CALLS_URL}/${encodeURIComponent(id)}`, { signal });

/** One call, read again until it is completed, failed or unanswered (a scheduled one waits too). */
export const getVoiceCallQueryOptions = (id: string) =>
  queryOptions({
    queryKey: voiceKeys.call(id),
    queryFn: ({ signal }) => getVoiceCall(id, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      if (query.state.error || !status) return false;
      return FINISHED_CALL_STATUSES.includes(status) || status === 'scheduled' ? false : CALL_POLL_MS;
    },
  });

export const useVoiceCall = (id: string) => useQuery(getVoiceCallQueryOptions(id));
