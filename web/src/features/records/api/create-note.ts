import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';

import { recordsKeys } from './query-keys';
import type { Note } from './types';

export type NoteInput = { entityType: RecordType; entityId: string; body: string };

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
