import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

import { screenHref, type ScreenName } from '@/config/paths';
import type { Timeframe } from '@/features/dashboard/api/query-keys';
import { CampaignPerformanceCard } from '@/features/dashboard/components/campaign-performance';
import { ExportReportButton, RefreshDashboardButton } from '@/features/dashboard/components/dashboard-actions';
import { MeetingAnalyticsCard, RegionalCards } from '@/features/dashboard/components/dashboard-cards';
import { MetricTiles } from '@/features/dashboard/components/metric-tiles';
import { RecentActivityCard } from '@/features/dashboard/components/recent-activity';
import { MyTasksCard } from '@/features/records/components/my-tasks';
import { toast } from '@/stores/toasts';

export function DashboardRoute() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [timeframe, setTimeframe] = useState<Timeframe>(7);

  const go = (screen: ScreenName, title: string) => {
    toast({ title, description: 'Opening the details.' });
    void navigate(screenHref(screen, pathname));
  };

  return (
    <div className="space-y-6">
      <title>Dashboard · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Business Intelligence Dashboard</h1>
        <div className="flex gap-2">
          <RefreshDashboardButton />
          <ExportReportButton />
        </div>
      </div>

      <MetricTiles onOpen={go} />

      <div className="grid gap-6 lg:grid-cols-2">
        <CampaignPerformanceCard timeframe={timeframe} onTimeframeChange={setTimeframe} />
        <MeetingAnalyticsCard />
        <RegionalCards />
        <RecentActivityCard />
        <MyTasksCard />
      </div>
    </div>
  );
}
