import { ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { formatDollars, formatMillions, formatPercent } from '@/lib/rules';

import { usePipelineMetrics } from '../api/get-pipeline-metrics';

/** The pipeline's tiles: totals, close rate, cycle, and how they compare with the industry. */
export function PipelineMetrics() {
  const metrics = usePipelineMetrics();
  if (metrics.isPending) return <Skeleton rows={1} label="Loading pipeline metrics" />;
  if (metrics.isError) {
    return <ErrorState title="Failed to load pipeline metrics" error={metrics.error} onRetry={() => void metrics.refetch()} />;
  }
  const m = metrics.data;
  return (
    <>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-5">
        <StatTile label="Total Pipeline" value={formatMillions(m.totalPipeline)} note={`${formatPercent(m.qoqGrowth)} vs last quarter`} />
        <StatTile label="Active Deals" value={m.activeDealsCount} note={`${formatPercent(m.weeklyGrowth)} this week`} />
        <StatTile label="Close Rate" value={formatPercent(m.closeRate)} note={`Target ${formatPercent(m.targetCloseRate)}`} />
        <StatTile
          label="Days Avg Cycle"
          value={m.avgCycleDays}
          note={m.avgCycleDays < 40 ? 'faster than industry standard' : `Industry average ${m.industryAvgCycle} days`}
        />
        <StatTile label="Expected Close" value={formatMillions(m.expectedCloseValue)} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatTile
          label="Conversion Rate"
          value={formatPercent(m.conversionRate)}
          note={m.conversionRate > m.industryAvgCloseRate ? 'Above industry avg' : `Industry avg ${formatPercent(m.industryAvgCloseRate)}`}
        />
        <StatTile label="Avg Deal Size" value={formatDollars(m.avgDealSize)} note={`Industry avg ${formatDollars(m.industryAvgDealSize)}`} />
        <StatTile
          label="Pipeline Velocity"
          value={m.pipelineVelocity.toFixed(1)}
          note={m.pipelineVelocity > 2 ? 'Accelerating' : 'Building momentum'}
        />
      </div>
    </>
  );
}
