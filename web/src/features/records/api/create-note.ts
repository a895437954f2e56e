import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { recordsKeys } from './query-keys';
import type { Note } from './types';

type NoteBody = NonNullable<paths['/api/notes']['post']['requestBody']>['content']['application/json'];
/** The body, its record required: the mutation refreshes that record's queries. */
// The server takes one of these; its schema says string (issue 24 §2).
export type NoteInput = Omit<NoteBody, 'entityType' | 'entityId'> & { entityType: RecordType; entityId: string };

/** `POST /api/notes`: 201 with the note; 400 with `errors.body` when empty. */
export const createNote = (input: NoteInput) => api.post<Note>('/api/notes', input);

export const useCreateNote = (options: { onSuccess?: (n: Note) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNote,
    onSuccess: async (note, input) => {
      await queryClient.invalidateQueries({ queryKey: recordsKeys.record(input.entityType, input.entityId) });
      options.onSuccess?.(note);
    },
    onError: options.onError,
  });
};
