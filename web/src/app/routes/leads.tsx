import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { useLeadBoard, type LeadStageName } from '@/features/leads/api/get-lead-board';
import { BulkMoveForm } from '@/features/leads/components/bulk-move-form';
import { LeadBoard } from '@/features/leads/components/lead-board';
import { AddToSequenceDialog } from '@/features/outreach/components/add-to-sequence-dialog';
import { NewCampaignDialog } from '@/features/outreach/components/new-campaign-dialog';
import { SelectionBar } from '@/features/outreach/components/selection-bar';

export function LeadsRoute() {
  const [bulk, setBulk] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [target, setTarget] = useState<LeadStageName | ''>('');
  const [action, setAction] = useState<'enroll' | 'campaign' | null>(null);

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  // The board's own read (one cache entry): every lead in its four stages.
  const board = useLeadBoard();
  const leadTotal = board.data?.reduce((n, s) => n + s.count, 0);
  const count = `${selected.size.toLocaleString()} ${selected.size === 1 ? 'lead' : 'leads'}`;

  return (
    <div className="space-y-6">
      <title>Lead Pipeline · Prospector</title>
      <PageHeader
        title="Lead Pipeline"
        count={leadTotal}
        action={
          <Button variant={bulk ? 'primary' : 'secondary'} aria-pressed={bulk} onClick={() => { setBulk(!bulk); setSelected(new Set()); }}>
            Bulk Actions
          </Button>
        }
      />
      {bulk ? <BulkMoveForm selected={selected} target={target} onTargetChange={setTarget} onMoved={() => setSelected(new Set())} /> : null}
      {bulk && selected.size > 0 ? (
        <SelectionBar
          count={count}
          onAddToSequence={() => setAction('enroll')}
          onNewCampaign={() => setAction('campaign')}
          onClear={() => setSelected(new Set())}
        />
      ) : null}

      <LeadBoard bulk={bulk} selected={selected} onToggle={toggle} />
      {action === 'enroll' ? (
        <AddToSequenceDialog selection={{ contactIds: [...selected] }} label={count} onClose={() => setAction(null)} />
      ) : null}
      {action === 'campaign' ? (
        <NewCampaignDialog selection={{ contactIds: [...selected] }} label={count} onClose={() => setAction(null)} />
      ) : null}
    </div>
  );
}
