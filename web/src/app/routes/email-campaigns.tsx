import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { StatTile } from '@/components/ui/states';
import { PageHeader } from '@/components/ui/page-header';
import { screenHref } from '@/config/paths';
import { usePerformance } from '@/features/campaigns/api/get-performance';
import { BulkCampaignTabs } from '@/features/campaigns/components/bulk-campaign-tabs';
import { CreateBulkCampaignDialog } from '@/features/campaigns/components/create-bulk-campaign-dialog';
import { ReadinessPanel } from '@/features/campaigns/components/readiness-panel';
import { formatOpenRate } from '@/lib/rules';

/** Bulk Email Campaigns (seed 002 §2): overview, active campaigns with live delivery, analytics. */
export function EmailCampaignsRoute() {
  const { pathname } = useLocation();
  const performance = usePerformance();
  const [creating, setCreating] = useState(false);
  const perf = performance.data;
  return (
    <div className="space-y-6">
      <title>Email Campaigns · Prospector</title>
      <PageHeader
        title="Email Campaigns"
        count={perf?.totalCampaigns}
        description="Intelligent bulk email campaigns with advanced targeting and tracking."
        action={
          <>
            <Link to={screenHref('emailConfig', pathname)} className="text-sm font-semibold text-indigo-700 hover:underline">
              Email configuration
            </Link>
            <Button onClick={() => setCreating(true)}>Create Campaign</Button>
          </>
        }
      />
      {perf ? (
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          <StatTile label="Total Campaigns" value={perf.totalCampaigns.toLocaleString()} />
          <StatTile label="Emails Sent" value={perf.totalEmailsSent.toLocaleString()} />
          <StatTile label="Avg Open Rate" value={formatOpenRate(perf.averageOpenRate, perf.figures)} />
          <StatTile label="Avg Click Rate" value={`${perf.averageClickRate}%`} />
          <StatTile label="Avg Reply Rate" value={`${perf.averageReplyRate}%`} />
        </div>
      ) : null}
      <ReadinessPanel />
      <BulkCampaignTabs />
      {creating ? <CreateBulkCampaignDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
