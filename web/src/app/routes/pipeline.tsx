import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { useDealBoard } from '@/features/deals/api/get-deal-board';
import { DealBoard } from '@/features/deals/components/deal-board';
import { DealFormDialog } from '@/features/deals/components/deal-form-dialog';
import { ExportPipelineButton } from '@/features/deals/components/export-pipeline-button';
import { PipelineMetrics } from '@/features/deals/components/pipeline-metrics';
import { Prospects } from '@/features/deals/components/prospects';
import type { Deal } from '@/types/api';

export function PipelineRoute() {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Deal | null>(null);
  // The board's own read (one cache entry): every deal in its columns.
  const board = useDealBoard();
  const dealTotal = board.data?.reduce((n, c) => n + c.count, 0);

  return (
    <div className="space-y-6">
      <title>Sales Pipeline · Prospector</title>
      <PageHeader
        title="Sales Pipeline"
        count={dealTotal}
        action={
          <>
            <ExportPipelineButton />
            <Button onClick={() => setAdding(true)}>Add Deal</Button>
          </>
        }
      />
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
