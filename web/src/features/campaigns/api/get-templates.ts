import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EmailTemplateList } from '@/types/openapi.gen';

import { campaignsKeys } from './query-keys';

export const getTemplates = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<EmailTemplateList>('/api/email-templates', { signal }).then((r) => r.templates);

export const useTemplates = () =>
  useQuery(queryOptions({ queryKey: campaignsKeys.templates(), queryFn: ({ signal }) => getTemplates({ signal }) }));
