import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { BulkMoveForm } from '@/features/leads/components/bulk-move-form';
import { LeadBoard } from '@/features/leads/components/lead-board';

export function LeadsRoute() {
  const [bulk, setBulk] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [target, setTarget] = useState('');

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="space-y-6">
      <title>Lead Pipeline · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Lead Pipeline</h1>
        <Button variant={bulk ? 'primary' : 'secondary'} aria-pressed={bulk} onClick={() => { setBulk(!bulk); setSelected(new Set()); }}>
          Bulk Actions
        </Button>
      </div>
      {bulk ? <BulkMoveForm selected={selected} target={target} onTargetChange={setTarget} onMoved={() => setSelected(new Set())} /> : null}

      <LeadBoard bulk={bulk} selected={selected} onToggle={toggle} />
    </div>
  );
}
