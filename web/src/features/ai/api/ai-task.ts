import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { ApiError, api, errorFromResponse, serverMessageOr } from '@/lib/api-client';

import { aiKeys } from './query-keys';

/**
 * The AI endpoints answer twice (docs/voice-and-ai.md): `200` with the result when the job finished
 * within the server's wait, else `202 {jobId}` and the job's `result` has the same shape.
 */
export type AiAnswer<R> = { result: R; jobId?: undefined } | { result?: undefined; jobId: string };

type Queued = { jobId: string; status: string };

/** POSTs JSON to an AI endpoint. */
export async function postAiTask<R>(url: string, body: unknown): Promise<AiAnswer<R>> {
  const { data, status } = await api.request<R | Queued>('POST', url, { body });
  return status === 202 ? { jobId: (data as Queued).jobId } : { result: data as R };
}

/**
 * POSTs a document as multipart (field `document`). A failure without a JSON message reads
 * 'HTTP error! status: {code}' (seed 002 §8).
 */
export async function postAiDocument<R>(url: string, file: File): Promise<AiAnswer<R>> {
  const form = new FormData();
  form.append('document', file);
  const response = await fetch(url, { method: 'POST', credentials: 'include', body: form });
  const text = await response.text();
  if (!response.ok) {
    const error = errorFromResponse(response.status, response.statusText, text);
    if (error.serverMessage) throw error;
    throw new ApiError(response.status, `HTTP error! status: ${response.status}`, undefined, error.body);
  }
  const data = JSON.parse(text) as R | Queued;
  return response.status === 202 ? { jobId: (data as Queued).jobId } : { result: data as R };
}

/** A failed upload's message: the server's, else 'HTTP error! status: N', else `fallback`. */
export const uploadFailure = (e: Error, fallback: string) => (e instanceof ApiError && e.message ? e.message : fallback);

export type AiTaskOptions<R> = {
  onSuccess: (result: R) => void;
  /** Why it failed: the server's message, the job's error, else `fallback`. */
  onError: (message: string) => void;
  fallback: string;
  /** How a failed request reads; JSON endpoints give the server's message. */
  describe?: (e: Error, fallback: string) => string;
};

/**
 * Runs an AI task and, when it answers 202, follows its job (`GET /api/jobs/{id}`) to the result.
 * `pending` covers both.
 */
export function useAiTask<I, R>(
  fn: (input: I) => Promise<AiAnswer<R>>,
  { onSuccess, onError, fallback, describe = serverMessageOr }: AiTaskOptions<R>,
): { run: (input: I) => void; pending: boolean } {
  const [jobId, setJobId] = useState<string | null>(null);
  const queryClient = useQueryClient();
  // Each task is a run the analytics count: read them again once it has ended either way
  // (here when it answered at once, through the job's outcome when it was queued).
  const counted = useCallback(() => void queryClient.invalidateQueries({ queryKey: aiKeys.all }), [queryClient]);
  const mutation = useMutation({
    mutationFn: fn,
    onSuccess: (answer) => {
      if (answer.jobId !== undefined) {
        setJobId(answer.jobId);
        return;
      }
      counted();
      onSuccess(answer.result);
    },
    onError: (e) => {
      counted();
      onError(describe(e, fallback));
    },
  });
  useJobOutcome(jobId, {
    onDone: (job) => {
      setJobId(null);
      if (job.status === 'succeeded') onSuccess(job.result as R);
      else onError(job.error ?? (job.status === 'cancelled' ? 'The task was cancelled.' : fallback));
    },
    onError: (e) => {
      setJobId(null);
      onError(serverMessageOr(e, fallback));
    },
    invalidate: [aiKeys.all],
  });
  return { run: mutation.mutate, pending: mutation.isPending || jobId !== null };
}
