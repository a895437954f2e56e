import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { CreateBulkCampaignDialog } from '@/features/campaigns/components/create-bulk-campaign-dialog';
import { errorMessage } from '@/lib/api-client';

import { useSelectionPreview } from '../api/preview-selection';
import { skippedText, type Selection } from '../api/types';

/**
 * "New bulk campaign" for a selection: the server resolves it (filters, companies) to contacts
 * and says who can receive it, then the campaign dialog opens with those contacts as its audience.
 */
export function NewCampaignDialog({ selection, label, onClose }: { selection: Selection; label: string; onClose: () => void }) {
  const preview = useSelectionPreview(selection, undefined);
  if (preview.data) {
    const { selected, reachable, skipped, contactIds } = preview.data;
    const skippedLine = skippedText(skipped);
    return (
      <CreateBulkCampaignDialog
        onClose={onClose}
        selection={{
          contactIds,
          summary: (
            <>
              <p className="font-medium text-slate-900">
                {label}: {selected.toLocaleString()} selected, {reachable.toLocaleString()} will receive it.
              </p>
              {skippedLine ? <p className="text-slate-600">Skipped: {skippedLine}.</p> : null}
            </>
          ),
        }}
      />
    );
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="New bulk campaign" description={label}>
      {preview.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorMessage(preview.error)}
        </p>
      ) : (
        <Spinner label="Counting who can receive it" />
      )}
    </Dialog>
  );
}
