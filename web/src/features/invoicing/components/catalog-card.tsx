import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { FileDrop } from '@/components/ui/file-drop';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { ApiError, serverMessageOr } from '@/lib/api-client';
import { formatCents } from '@/lib/invoice-math';
import { toast } from '@/stores/toasts';

import { useCatalog } from '../api/get-catalog';
import type { CatalogProduct } from '../api/types';
import { useUploadCatalog } from '../api/upload-catalog';

const CSV_COLUMNS = "CSV must contain 'name' and 'price' columns";
/** Seed 002 §5: csv, xlsx, xls and pdf are taken (a PDF gets the server's not-supported notice). */
const CATALOG_ACCEPT = {
  'text/csv': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/vnd.ms-excel': ['.xls'],
  'application/pdf': ['.pdf'],
};
/** The api's limit on a catalog file (`CATALOG_LIMIT`, 10 MiB). */
const CATALOG_MAX_BYTES = 10 * 1024 * 1024;

/** The product catalog: upload a CSV or Excel price list, add products as line items. */
export function CatalogCard({ onAdd }: { onAdd: (p: CatalogProduct) => void }) {
  const catalog = useCatalog();
  const upload = useUploadCatalog();
  // The last file chosen: it is uploaded at once, and stays shown until another replaces it.
  const [file, setFile] = useState<File | null>(null);
  const onFile = (chosen: File | null) => {
    setFile(chosen);
    if (!chosen) return;
    upload.mutate(chosen, {
      onSuccess: (r) => toast({ title: 'Catalog Uploaded', description: r.message, variant: 'success' }),
      onError: (e) => {
        const message = serverMessageOr(e, 'Failed to upload catalog');
        if (message.startsWith('Invalid CSV Format')) {
          toast({ title: 'Invalid CSV Format', description: CSV_COLUMNS, variant: 'destructive' });
        } else if (e instanceof ApiError && e.status === 415 && message.startsWith('PDF')) {
          toast({ title: 'PDF Catalogs Not Supported', description: message, variant: 'destructive' });
        } else if (e instanceof ApiError && e.status === 415) {
          toast({ title: 'Unsupported File Type', description: 'Upload a CSV or Excel (.xlsx, .xls) file.', variant: 'destructive' });
        } else {
          toast({ title: 'Upload Failed', description: message, variant: 'destructive' });
        }
      },
    });
  };
  const products = catalog.data ?? [];
  return (
    <Card title="Product Catalog">
      <Field label="Upload catalog" hint="CSV or Excel with name and price columns (description, category and sku optional).">
        <FileDrop
          file={file}
          onChange={onFile}
          accept={CATALOG_ACCEPT}
          maxSize={CATALOG_MAX_BYTES}
          // PDF is let through for the server's "not supported" notice, so it is not offered here.
          types="CSV or Excel (XLSX, XLS)"
          disabled={upload.isPending}
        />
      </Field>
      <div className="mt-3">
        {catalog.isPending ? (
          <Skeleton rows={2} label="Loading catalog" />
        ) : catalog.isError ? (
          <ErrorState title="Could not load the catalog" error={catalog.error} onRetry={() => void catalog.refetch()} />
        ) : products.length === 0 ? (
          <EmptyState title="No products yet">Upload a price list to pick line items from it.</EmptyState>
        ) : (
          <ul aria-label="Products" className="max-h-64 divide-y divide-slate-100 overflow-y-auto">
            {products.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-2 py-2 text-sm">
                <span className="min-w-0">
                  <span className="font-medium">{p.name}</span>
                  {p.sku ? <span className="ml-2 text-xs text-slate-500">{p.sku}</span> : null}
                </span>
                <span className="flex shrink-0 items-center gap-2">
                  <span className="tabular-nums">{formatCents(Math.round(p.price * 100))}</span>
                  <Button type="button" variant="secondary" onClick={() => onAdd(p)} aria-label={`Add ${p.name}`}>
                    Add
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
