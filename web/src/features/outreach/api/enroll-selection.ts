import { useMutation, useQueryClient } from '@tanstack/react-query';

import { sequencesKeys } from '@/features/sequences/api/query-keys';
import { api } from '@/lib/api-client';

import { outreachKeys } from './query-keys';
import type { EnrollResult, Selection } from './types';

export const enrollSelection = ({ sequenceId, selection }: { sequenceId: string; selection: Selection }) =>
  api.post<EnrollResult>(`/api/email-sequences/${encodeURIComponent(sequenceId)}/enrollments`, selection);

export const useEnrollSelection = (options: { onSuccess?: (r: EnrollResult) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrollSelection,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sequencesKeys.all }),
        queryClient.invalidateQueries({ queryKey: outreachKeys.all }),
      ]),
    ...options,
  });
};
