import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { isOneOf } from '@/lib/guards';
import { toast } from '@/stores/toasts';

import { useBulkMoveLeads } from '../api/bulk-move-leads';
import { useLeadBoard, type LeadStageName } from '../api/get-lead-board';

/** Moves the selected leads to one stage; `onMoved` clears the selection. */
export function BulkMoveForm({
  selected,
  target,
  onTargetChange,
  onMoved,
}: {
  selected: Set<string>;
  target: LeadStageName | '';
  onTargetChange: (stage: LeadStageName) => void;
  onMoved: () => void;
}) {
  const stages = useLeadBoard().data ?? [];
  const stageNames = stages.map((s) => s.stage);
  const bulkMove = useBulkMoveLeads({
    onSuccess: (r) => {
      toast({ title: 'Leads Moved', description: `${r.updated} of ${r.matched} contacts moved.`, variant: 'success' });
      onMoved();
    },
    onError: () => toast({ title: 'Bulk Update Failed', description: 'Failed to update some contacts.', variant: 'destructive' }),
  });
  return (
    <form
      aria-label="Bulk move"
      className="flex flex-wrap items-end gap-3 rounded-lg bg-indigo-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (target && selected.size > 0) bulkMove.mutate({ contactIds: [...selected], status: target });
      }}
    >
      <p className="text-sm font-medium text-indigo-900">{selected.size} selected</p>
      <Field label="Move selected to">
        <Select
          value={target}
          onValueChange={(v) => {
            if (isOneOf(stageNames, v)) onTargetChange(v);
          }}
          placeholder="Choose a stage"
          options={stages.map((s) => [s.stage, s.title] as const)}
        />
      </Field>
      <Button type="submit" disabled={!target || selected.size === 0 || bulkMove.isPending}>
        Move
      </Button>
    </form>
  );
}
