import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ComposerPreviewInput, RenderedPreview } from '@/types/openapi.gen';

import { campaignsKeys } from './query-keys';
import type { EmailDraftFor } from './types';

export type RenderedEmail = RenderedPreview;

/** A draft rendered for a contact by the sender's own renderer (`POST /api/email/preview`). */
export const previewEmail = (draft: ComposerPreviewInput, { signal }: { signal?: AbortSignal } = {}) =>
  api.post<RenderedEmail>('/api/email/preview', draft, { signal });

/** Renders once the draft has a subject, a body and a contact. */
export const usePreviewEmail = (draft: EmailDraftFor) =>
  useQuery(
    queryOptions({
      queryKey: campaignsKeys.preview(draft),
      queryFn: ({ signal }) => previewEmail(draft, { signal }),
      enabled: Boolean(draft.contactId && draft.subject.trim() && draft.body.trim()),
      placeholderData: keepPreviousData,
      retry: false,
    }),
  );
