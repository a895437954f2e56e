import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';

import { JOBS_URL } from './get-jobs';
import { jobsKeys } from './query-keys';

export type CreateJobInput = {
  kind: string;
  payload: Record<string, unknown>;
  idempotencyKey?: string;
  /** RFC 3339; omit to run as soon as possible. */
  runAt?: string;
};

/** The payload of the built-in `noop` job kind. */
export type NoopPayload = {
  sleepMs?: number;
  steps?: number;
  fail?: boolean;
};

export const createJob = (input: CreateJobInput): Promise<EnqueueResponse> =>
  api.post<EnqueueResponse>(JOBS_URL, input);

type UseCreateJobOptions = {
  onSuccess?: (response: EnqueueResponse) => void;
};

export const useCreateJob = ({ onSuccess }: UseCreateJobOptions = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createJob,
    onSuccess: (response) => {
      void queryClient.invalidateQueries({ queryKey: jobsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: jobsKeys.queues });
      onSuccess?.(response);
    },
  });
};
