import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignsKeys } from './query-keys';
import type { EmailTemplate } from './types';

export const getTemplates = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<{ templates: EmailTemplate[] }>('/api/email-templates', { signal }).then((r) => r.templates);

export const useTemplates = () =>
  useQuery(queryOptions({ queryKey: campaignsKeys.templates(), queryFn: ({ signal }) => getTemplates({ signal }) }));
