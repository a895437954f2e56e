import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import { isAdminPath } from '@/config/paths';

import { MORE_ACTIVITY_COUNT, RECENT_ACTIVITY_COUNT, useActivities } from '../api/get-activities';
import { fullDate, relativeDate } from './activity-dates';

/** The latest activity, newest first: scans, campaigns, sends, replies, deals, meetings, imports; each links to its screen. */
export function RecentActivityCard() {
  const { pathname } = useLocation();
  const [limit, setLimit] = useState(RECENT_ACTIVITY_COUNT);
  const activities = useActivities(limit);
  const page = activities.data;
  const href = (link: string) => (isAdminPath(pathname) ? `/admin${link}` : link);
  return (
    <Card title="Recent Activity">
      {activities.isError && !page ? (
        <ErrorState title="Failed to load recent activity" error={activities.error} onRetry={() => void activities.refetch()} />
      ) : !page ? (
        <Skeleton rows={3} label="Loading recent activity" />
      ) : page.entries.length === 0 ? (
        <p className="text-sm text-slate-500">No activity yet.</p>
      ) : (
        <>
          <ol aria-label="Recent activity" className="divide-y divide-slate-100">
            {page.entries.map((a) => (
              <li key={a.id} data-kind={a.kind} className="py-2 text-sm">
                {a.link ? (
                  <Link to={href(a.link)} className="text-slate-800 hover:text-indigo-700 hover:underline">
                    {a.summary}
                  </Link>
                ) : (
                  <p className="text-slate-800">{a.summary}</p>
                )}
                <p className="text-xs text-slate-500">
                  <time dateTime={a.at} title={fullDate(a.at)}>
                    {relativeDate(a.at)}
                  </time>
                </p>
              </li>
            ))}
          </ol>
          {page.total > page.entries.length ? (
            <Button
              variant="secondary"
              size="sm"
              className="mt-2"
              disabled={activities.isFetching}
              onClick={() => setLimit((n) => n + MORE_ACTIVITY_COUNT)}
            >
              Show more activity
            </Button>
          ) : null}
        </>
      )}
    </Card>
  );
}
