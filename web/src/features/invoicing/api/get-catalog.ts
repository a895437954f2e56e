import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { invoiceKeys } from './query-keys';
import type { CatalogProduct } from './types';

export const CATALOG_URL = '/api/catalog';

export const useCatalog = () =>
  useQuery(
    queryOptions({
      queryKey: invoiceKeys.catalog(),
      queryFn: ({ signal }) => api.get<CatalogProduct[]>(CATALOG_URL, { signal }),
    }),
  );
