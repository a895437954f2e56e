import type { ReactNode } from 'react';

import { Button } from '@/components/ui/button';

/**
 * The bar over a list with a selection: how many are selected and what can be done with them
 * (add to a sequence, start a bulk campaign, and what the screen adds; a screen without
 * outreach, like companies, leaves the first two out).
 */
export function SelectionBar({
  count,
  onAddToSequence,
  onNewCampaign,
  onClear,
  children,
}: {
  /** Selected contacts (or companies), as the user reads it: "12 contacts". */
  count: string;
  onAddToSequence?: () => void;
  onNewCampaign?: () => void;
  onClear: () => void;
  children?: ReactNode;
}) {
  return (
    <div role="toolbar" aria-label="Selection actions" className="flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 p-3">
      <p className="mr-2 text-sm font-medium text-indigo-900">{count} selected</p>
      {onAddToSequence ? (
        <Button size="sm" onClick={onAddToSequence}>
          Add to sequence
        </Button>
      ) : null}
      {onNewCampaign ? (
        <Button size="sm" variant="secondary" onClick={onNewCampaign}>
          New bulk campaign
        </Button>
      ) : null}
      {children}
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}
