import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';
import type { paths } from '@/types/openapi.gen';

import { JOBS_URL } from './get-jobs';
import { jobsKeys } from './query-keys';

/** `POST /api/ops/jobs`; `runAt` (RFC 3339) omitted runs it as soon as possible. */
export type CreateJobInput = NonNullable<paths['/api/ops/jobs']['post']['requestBody']>['content']['application/json'];

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
