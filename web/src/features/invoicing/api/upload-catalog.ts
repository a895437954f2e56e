import { useMutation, useQueryClient } from '@tanstack/react-query';

import { errorFromResponse } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { CATALOG_URL } from './get-catalog';
import { invoiceKeys } from './query-keys';

export type CatalogUploadResult = paths['/api/catalog/upload']['post']['responses'][200]['content']['application/json'];

/** Multipart upload (field `file`); the server reads CSV and Excel, refuses the rest. */
export async function uploadCatalog(file: File): Promise<CatalogUploadResult> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetch(`${CATALOG_URL}/upload`, { method: 'POST', credentials: 'include', body: form });
  const text = await response.text();
  if (!response.ok) throw errorFromResponse(response.status, response.statusText, text);
  return JSON.parse(text) as CatalogUploadResult;
}

export const useUploadCatalog = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCatalog,
    onSuccess: (result) => queryClient.setQueryData(invoiceKeys.catalog(), result.products),
  });
};
