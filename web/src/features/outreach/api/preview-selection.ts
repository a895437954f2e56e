import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { outreachKeys } from './query-keys';
import type { PreviewInput, Selection, SelectionPreview } from './types';

export const previewSelection = (input: PreviewInput, signal?: AbortSignal) =>
  api.post<SelectionPreview>('/api/outreach/preview', input, { signal });

/** Who an action on the selection would reach and skip; refetched when the target changes. */
export const useSelectionPreview = (selection: Selection, sequenceId: string | undefined, enabled = true) =>
  useQuery({
    queryKey: outreachKeys.preview(selection, sequenceId),
    queryFn: ({ signal }) => previewSelection({ ...selection, sequenceId }, signal),
    enabled,
  });
