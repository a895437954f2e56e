import { lazy, Suspense } from 'react';

import { Card, ErrorState, Skeleton } from '@/components/ui/states';

import { useDashboardMetrics } from '../api/get-dashboard-metrics';
import { useRegional } from '../api/get-regional';
import { RegionalChart } from './regional-chart';

// The map and its boundaries load only when the dashboard shows it.
const RegionMap = lazy(() => import('./region-map').then((m) => ({ default: m.RegionMap })));

/** Upcoming, completed and this month's meetings. */
export function MeetingAnalyticsCard() {
  const m = useDashboardMetrics().data;
  return (
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
  );
}

/** Contacts by region, as a chart and on the map. */
export function RegionalCards() {
  const regional = useRegional();
  return (
    <>
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
    </>
  );
}
