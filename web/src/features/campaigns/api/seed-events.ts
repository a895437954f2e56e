import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { SampleEvents } from '@/types/openapi.gen';

/** Sample tracking data for an empty install (`POST /api/email/seed-events`). */
export const seedEvents = () => api.post<SampleEvents>('/api/email/seed-events');

export const useSeedEvents = (options: { onSuccess: () => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: seedEvents,
    onSuccess: () => {
      void queryClient.invalidateQueries();
      options.onSuccess();
    },
    onError: options.onError,
  });
};
