import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { TemplateInput } from '@/types/openapi.gen';

import { campaignsKeys } from './query-keys';
import type { EmailTemplate } from './types';

export type { TemplateInput };

/** Saves a new template (`POST /api/email-templates`), or changes one (`PUT /api/email-templates/{id}`). */
export const saveTemplate = ({ id, ...input }: TemplateInput & { id?: string }) =>
  id
    ? api.put<EmailTemplate>(`/api/email-templates/${encodeURIComponent(id)}`, input)
    : api.post<EmailTemplate>('/api/email-templates', input);

export const useSaveTemplate = ({ onSuccess, onError }: { onSuccess: (t: EmailTemplate) => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTemplate,
    onSuccess: (t) => {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.templates() });
      onSuccess(t);
    },
    onError,
  });
};
