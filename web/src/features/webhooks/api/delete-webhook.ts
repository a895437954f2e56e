import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { endpointUrl } from './get-webhooks';
import { webhooksKeys } from './query-keys';

export const deleteWebhook = (id: string) => api.delete<undefined>(endpointUrl(id));

export const useDeleteWebhook = (options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
      options.onSuccess?.();
    },
    onError: options.onError,
  });
};
