import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FileDrop } from '@/components/ui/file-drop';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { contactsKeys } from '../api/query-keys';
import { useImportContacts, type ImportResult } from '../api/import-contacts';

/** Follows the contact_import job until it ends; then refreshes the contacts. */
function ImportProgress({ jobId }: { jobId: string }) {
  const job = useJobOutcome(jobId, {
    onDone: ({ status, result, error }) => {
      if (status === 'succeeded') {
        const r = result as ImportResult | null;
        toast({
          title: 'Import Complete',
          description: r ? `${r.imported} imported, ${r.updated} updated, ${r.rejectedCount} rejected.` : undefined,
          variant: 'success',
        });
      } else {
        toast({ title: 'Import Failed', description: error ?? `The import was ${status}.`, variant: 'destructive' });
      }
    },
    invalidate: [contactsKeys.all],
  });
  const status = job.data?.status;
  const result = status === 'succeeded' ? (job.data?.result as ImportResult | null) : null;

  if (job.isError) return <p role="alert" className="text-sm text-rose-700">{errorMessage(job.error)}</p>;
  return (
    <div className="space-y-3" data-job-status={status}>
      <ProgressBar
        label="Import progress"
        percent={status === 'succeeded' ? 100 : (job.data?.progress?.percent ?? 0)}
        message={job.data?.progress?.message ?? status ?? 'queued'}
      />
      {result ? (
        <div className="text-sm">
          <p>
            {result.rows} rows read: {result.imported} imported, {result.updated} updated, {result.rejectedCount} rejected.
          </p>
          {result.rejected.length > 0 ? (
            <ul aria-label="Rejected rows" className="mt-2 max-h-40 list-disc overflow-y-auto pl-5 text-rose-800">
              {result.rejected.slice(0, 50).map((r) => (
                <li key={r.line}>
                  Line {r.line}: {r.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** The api's limit on an import (`IMPORT_LIMIT`, 50 MiB): a larger file is refused before uploading. */
const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

export function ImportContactsDialog({ onClose }: { onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const upload = useImportContacts({});

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Import Contacts"
      description="Upload a CSV file with the columns firstName, lastName and email (phone, title, department and status are optional)."
    >
      {upload.data ? (
        <ImportProgress jobId={upload.data.jobId} />
      ) : (
        <form
          aria-label="Import contacts"
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!file) {
              setFileError('Choose a CSV file to import.');
              return;
            }
            upload.mutate(file);
          }}
        >
          <Field label="CSV file" error={fileError}>
            <FileDrop
              file={file}
              onChange={(f) => {
                setFile(f);
                setFileError(undefined);
              }}
              accept={{ 'text/csv': ['.csv'] }}
              maxSize={IMPORT_MAX_BYTES}
              types="CSV"
            />
          </Field>
          {upload.isError ? (
            <p role="alert" className="text-sm text-rose-700">
              {errorMessage(upload.error)}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={upload.isPending}>
              {upload.isPending ? 'Uploading…' : 'Import'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
