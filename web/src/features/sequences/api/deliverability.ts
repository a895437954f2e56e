import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { sequencesKeys } from './query-keys';
import type { Deliverability } from './types';

export const DELIVERABILITY_URL = '/api/deliverability-settings';

export const getDeliverability = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<Deliverability>(DELIVERABILITY_URL, { signal });

export const useDeliverability = () =>
  useQuery(queryOptions({ queryKey: sequencesKeys.deliverability, queryFn: ({ signal }) => getDeliverability({ signal }) }));

export type DeliverabilityInput = NonNullable<paths['/api/deliverability-settings']['put']['requestBody']>['content']['application/json'];

export const saveDeliverability = (body: DeliverabilityInput) => api.put<Deliverability>(DELIVERABILITY_URL, body);

export const useSaveDeliverability = ({ onSuccess, onError }: { onSuccess: () => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDeliverability,
    onSuccess: (d) => {
      queryClient.setQueryData(sequencesKeys.deliverability, d);
      onSuccess();
    },
    onError,
  });
};
