import { ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import type { ScreenName } from '@/config/paths';
import { formatDollars, formatOpenRate, formatPercent } from '@/lib/rules';

import { useDashboardMetrics } from '../api/get-dashboard-metrics';
import { useEmailAnalytics } from '../api/get-email-analytics';

/** The four headline tiles; three open their screen (`onOpen`). A failed refresh keeps the figures shown. */
export function MetricTiles({ onOpen: go }: { onOpen: (screen: ScreenName, title: string) => void }) {
  const metrics = useDashboardMetrics();
  const email = useEmailAnalytics();
  const m = metrics.data;
  return m ? (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatTile
        testId="card-prospects"
        label="Prospects Identified"
        value={m.prospectsIdentified.toLocaleString()}
        note={m.prospectsChangeText}
        onClick={() => go('companies', 'Company Prospects')}
      />
      <StatTile
        testId="card-email"
        label="Email Open Rate"
        value={email.data ? formatOpenRate(email.data.openRate, email.data.figures) : '—'}
        note={email.data ? `${email.data.totalSent.toLocaleString()} sent (30 days)` : email.isError ? 'Email analytics unavailable' : undefined}
      />
      <StatTile
        testId="card-meetings"
        label="Meetings Scheduled"
        value={m.meetingsScheduled.toLocaleString()}
        note={`${formatPercent(m.meetingConversionRate)} of contacts reached in 30 days booked`}
        onClick={() => go('pipeline', 'Sales Pipeline')}
      />
      <StatTile
        testId="card-pipeline"
        label="Pipeline Value"
        value={formatDollars(m.pipelineValue)}
        note={`${m.activeDeals.toLocaleString()} active deals`}
        onClick={() => go('pipeline', 'Sales Pipeline')}
      />
    </div>
  ) : metrics.isError ? (
    <ErrorState title="Failed to load dashboard metrics" error={metrics.error} onRetry={() => void metrics.refetch()} />
  ) : (
    <Skeleton rows={2} label="Loading metrics" />
  );
}
