import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CustomerStatsView } from '@/types/openapi.gen';

import { CUSTOMERS_URL } from './get-customers';
import { customersKeys } from './query-keys';

/** highValue: score 85+; newThisMonth: created within the last 30 days. */
export type CustomerStats = CustomerStatsView;

export const getCustomerStats = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<CustomerStats>(`${CUSTOMERS_URL}/stats`, { signal });

export const useCustomerStats = () =>
  useQuery(queryOptions({ queryKey: customersKeys.stats(), queryFn: ({ signal }) => getCustomerStats({ signal }) }));
