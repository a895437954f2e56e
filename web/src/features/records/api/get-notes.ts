import { queryOptions, useQuery } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';

import { recordsKeys } from './query-keys';
import type { Note } from './types';

/** `GET /api/notes?entityType=&entityId=`: a record's notes in full, newest first. */
export const getNotes = (type: RecordType, id: string, signal?: AbortSignal) =>
  api.get<Note[]>('/api/notes', { params: { entityType: type, entityId: id }, signal });

export const useNotes = (type: RecordType, id: string) =>
  useQuery(
    queryOptions({
      queryKey: recordsKeys.notes(type, id),
      queryFn: ({ signal }) => getNotes(type, id, signal),
    }),
  );
