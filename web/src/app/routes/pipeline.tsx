import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { DealBoard } from '@/features/deals/components/deal-board';
import { DealFormDialog } from '@/features/deals/components/deal-form-dialog';
import { ExportPipelineButton } from '@/features/deals/components/export-pipeline-button';
import { PipelineMetrics } from '@/features/deals/components/pipeline-metrics';
import { Prospects } from '@/features/deals/components/prospects';
import type { Deal } from '@/types/api';

export function PipelineRoute() {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Deal | null>(null);

  return (
    <div className="space-y-6">
      <title>Sales Pipeline · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Sales Pipeline</h1>
        <div className="flex gap-2">
          <ExportPipelineButton />
          <Button onClick={() => setAdding(true)}>Add Deal</Button>
        </div>
      </div>
      <PipelineMetrics />
      <section aria-labelledby="active-prospects" className="space-y-3">
        <h2 id="active-prospects" className="text-lg font-semibold">
          Active Prospects
        </h2>
        <Prospects />
      </section>
      <section aria-labelledby="stages" className="space-y-3">
        <h2 id="stages" className="text-lg font-semibold">
          Pipeline Stages
        </h2>
        <DealBoard onEdit={setEditing} />
      </section>
      {adding ? <DealFormDialog onClose={() => setAdding(false)} /> : null}
      {editing ? <DealFormDialog deal={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}
