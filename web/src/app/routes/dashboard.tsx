import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { screenHref, type ScreenName } from '@/config/paths';
import { useRecentActivities } from '@/features/dashboard/api/get-activities';
import { useDashboardMetrics } from '@/features/dashboard/api/get-dashboard-metrics';
import { useEmailAnalytics } from '@/features/dashboard/api/get-email-analytics';
import { useRegional } from '@/features/dashboard/api/get-regional';
import { useDownloadReport } from '@/features/dashboard/api/download-report';
import { dashboardKeys, type Timeframe } from '@/features/dashboard/api/query-keys';
import { CampaignPerformanceCard } from '@/features/dashboard/components/campaign-performance';
import { RegionalChart } from '@/features/dashboard/components/regional-chart';

// The map and its boundaries load only when the dashboard shows it.
const RegionMap = lazy(() => import('@/features/dashboard/components/region-map').then((m) => ({ default: m.RegionMap })));
import { formatDateTime } from '@/lib/format';
import { formatDollars, formatPercent } from '@/lib/rules';
import { toast } from '@/stores/toasts';

export function DashboardRoute() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [timeframe, setTimeframe] = useState<Timeframe>(7);
  const [refreshing, setRefreshing] = useState(false);
  const metrics = useDashboardMetrics();
  const email = useEmailAnalytics();
  const regional = useRegional();
  const activities = useRecentActivities();
  const report = useDownloadReport({
    onSuccess: () =>
      toast({ title: 'Clean Export Completed', description: 'The business-development report was downloaded.', variant: 'success' }),
    onError: () =>
      toast({ title: 'Export Failed', description: 'Unable to generate report. Please try again.', variant: 'destructive' }),
  });

  const refresh = async () => {
    setRefreshing(true);
    try {
      await queryClient.refetchQueries({ queryKey: dashboardKeys.all, type: 'active' }, { throwOnError: true });
      toast({ title: 'Dashboard Refreshed', description: 'All dashboard data is up to date.', variant: 'success' });
    } catch {
      toast({ title: 'Refresh Failed', description: 'Failed to refresh dashboard data. Please try again.', variant: 'destructive' });
    } finally {
      setRefreshing(false);
    }
  };

  const go = (screen: ScreenName, title: string) => {
    toast({ title, description: 'Opening the details.' });
    void navigate(screenHref(screen, pathname));
  };

  const m = metrics.data;
  return (
    <div className="space-y-6">
      <title>Dashboard · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Business Intelligence Dashboard</h1>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={() => void refresh()} disabled={refreshing}>
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </Button>
          <Button onClick={() => report.mutate()} disabled={report.isPending}>
            {report.isPending ? 'Exporting…' : 'Export Report'}
          </Button>
        </div>
      </div>

      {/* A failed refresh keeps the figures already shown (the toast reports it). */}
      {m ? (
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
            value={email.data ? formatPercent(email.data.openRate) : '—'}
            note={email.data ? `${email.data.totalSent.toLocaleString()} sent (30 days)` : email.isError ? 'Email analytics unavailable' : undefined}
          />
          <StatTile
            testId="card-meetings"
            label="Meetings Scheduled"
            value={m.meetingsScheduled.toLocaleString()}
            note={`${formatPercent(m.meetingConversionRate)} of contacted leads`}
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
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <CampaignPerformanceCard timeframe={timeframe} onTimeframeChange={setTimeframe} />
        <Card title="Meeting Analytics">
          {m ? (
            <dl className="grid grid-cols-3 gap-3 text-center">
              {[
                ['Upcoming', m.upcomingMeetings],
                ['Completed', m.completedMeetings],
                ['This month', m.monthlyMeetings],
              ].map(([label, value]) => (
                <div key={label} className="rounded-lg bg-slate-50 p-3">
                  <dt className="text-xs text-slate-500">{label}</dt>
                  <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <Skeleton rows={1} label="Loading meeting analytics" />
          )}
        </Card>
        <Card title="Regional Distribution">
          {regional.data ? (
            <RegionalChart regions={regional.data} />
          ) : regional.isError ? (
            <ErrorState title="Failed to load regional data" error={regional.error} onRetry={() => void regional.refetch()} />
          ) : (
            <Skeleton rows={2} label="Loading regional distribution" />
          )}
        </Card>
        <Card title="Geographic Map">
          {regional.data ? (
            <Suspense fallback={<Skeleton rows={3} label="Loading the map" />}>
              <RegionMap regions={regional.data} />
            </Suspense>
          ) : regional.isError ? (
            <ErrorState title="Failed to load regional data" error={regional.error} onRetry={() => void regional.refetch()} />
          ) : (
            <Skeleton rows={3} label="Loading the map" />
          )}
        </Card>
        <Card title="Recent Activity">
          {activities.isError && !activities.data ? (
            <ErrorState title="Failed to load recent activity" error={activities.error} onRetry={() => void activities.refetch()} />
          ) : !activities.data ? (
            <Skeleton rows={3} label="Loading recent activity" />
          ) : activities.data.length === 0 ? (
            <p className="text-sm text-slate-500">No activity yet.</p>
          ) : (
            <ol aria-label="Recent activity" className="divide-y divide-slate-100">
              {activities.data.map((a) => (
                <li key={a.id} className="py-2 text-sm">
                  <p className="text-slate-800">{a.description}</p>
                  <p className="text-xs text-slate-500">{formatDateTime(a.timestamp)}</p>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </div>
  );
}
