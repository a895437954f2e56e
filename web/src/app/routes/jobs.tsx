import { useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { AuditPanel } from '@/features/jobs/components/audit-panel';
import { JobDetail } from '@/features/jobs/components/job-detail';
import { JobsList, type JobsFilters } from '@/features/jobs/components/jobs-list';
import { useQueues } from '@/features/jobs/api/get-queues';
import { QueueCharts } from '@/features/jobs/components/queue-charts';
import { QueueSummary } from '@/features/jobs/components/queue-summary';
import { RunTestJobForm } from '@/features/jobs/components/run-test-job-form';
import { WorkersPanel } from '@/features/jobs/components/workers-panel';
import { JOB_STATUSES, type JobStatus } from '@/types/api';

function parseStatus(value: string | null): JobStatus | '' {
  return JOB_STATUSES.find((s) => s === value) ?? '';
}

function parsePage(value: string | null): number {
  const page = Number.parseInt(value ?? '', 10);
  return Number.isFinite(page) && page > 0 ? page : 1;
}

/**
 * The Ops page (job queues). Filters, page and the selected job live in the address
 * (`?kind=&status=&q=&page=&job=`), so a view can be reloaded or shared.
 */
export function JobsRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters: JobsFilters = {
    kind: searchParams.get('kind') ?? '',
    status: parseStatus(searchParams.get('status')),
    q: searchParams.get('q') ?? '',
    page: parsePage(searchParams.get('page')),
  };
  const selectedJobId = searchParams.get('job');
  const kinds = (useQueues().data ?? []).map((q) => q.kind);

  const update = (patch: Record<string, string | number | null>) => {
    setSearchParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const [key, value] of Object.entries(patch)) {
        if (value === null || value === '' || (key === 'page' && value === 1)) next.delete(key);
        else next.set(key, String(value));
      }
      return next;
    });
  };

  const selectJob = (id: string | null) => update({ job: id });

  return (
    <div className="space-y-6">
      <title>Ops · Prospector</title>
      <PageHeader title="Ops" description="Job queues, runs, workers and the audit log." />
      <QueueSummary />
      <QueueCharts kinds={kinds} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="min-w-0 space-y-6">
          <RunTestJobForm onQueued={(id) => selectJob(id)} />
          <JobsList
            filters={filters}
            onFiltersChange={(patch) => update(patch)}
            selectedJobId={selectedJobId}
            onSelectJob={(id) => selectJob(id)}
          />
        </div>
        <aside aria-label="Selected job" className="min-w-0">
          {selectedJobId ? (
            <div className="lg:sticky lg:top-6">
              <JobDetail
                key={selectedJobId}
                jobId={selectedJobId}
                onClose={() => selectJob(null)}
                onSelectJob={(id) => selectJob(id)}
              />
            </div>
          ) : (
            <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
              Select a job to see its details.
            </p>
          )}
        </aside>
      </div>
      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <WorkersPanel />
        <AuditPanel />
      </div>
    </div>
  );
}
