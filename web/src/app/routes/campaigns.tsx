import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { StatTile } from '@/components/ui/states';
import { PageHeader } from '@/components/ui/page-header';
import { screenHref } from '@/config/paths';
import { useSeedEvents } from '@/features/campaigns/api/seed-events';
import { useSingleCampaigns } from '@/features/campaigns/api/single-campaigns';
import { AiCampaignBuilder } from '@/features/campaigns/components/ai-campaign-builder';
import { SingleCampaignForm } from '@/features/campaigns/components/single-campaign-form';
import { SingleCampaignList } from '@/features/campaigns/components/single-campaign-list';
import { useEmailSummary } from '@/features/email-config/api/get-email-analytics';
import { serverMessageOr } from '@/lib/api-client';
import { formatOpenRate } from '@/lib/rules';
import { toast } from '@/stores/toasts';

/** Email Campaigns (single; seed 002 §2): figures, the create form, the active campaigns and the AI builder. */
export function CampaignsRoute() {
  const { pathname } = useLocation();
  const campaigns = useSingleCampaigns();
  const summary = useEmailSummary();
  const seed = useSeedEvents({
    onSuccess: () => toast({ title: 'Sample Data Added', description: 'Tracking events for a sample campaign were recorded.', variant: 'success' }),
    onError: (e) => toast({ title: 'Sample Data Failed', description: serverMessageOr(e, 'Failed to add sample data'), variant: 'destructive' }),
  });
  const list = campaigns.data ?? [];
  const s = summary.data;

  return (
    <div className="space-y-6">
      <title>Campaigns · Prospector</title>
      <PageHeader
        title="Campaigns"
        count={campaigns.data ? list.length : undefined}
        action={
          <Link to={screenHref('emailCampaigns', pathname)} className="text-sm font-semibold text-indigo-700 hover:underline">
            Bulk email campaigns
          </Link>
        }
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatTile label="Campaigns" value={list.length} />
        <StatTile label="Sending" value={list.filter((c) => c.status === 'sending').length} />
        <StatTile label="Emails Sent (30 days)" value={(s?.totalSent ?? 0).toLocaleString()} />
        <StatTile label="Open Rate" value={s ? formatOpenRate(s.openRate, s.figures) : '—'} />
      </div>
      {s && s.totalSent === 0 ? (
        <Button variant="secondary" onClick={() => seed.mutate()} disabled={seed.isPending}>
          Add sample tracking data
        </Button>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <SingleCampaignForm />
        <SingleCampaignList campaigns={campaigns} />
      </div>
      <AiCampaignBuilder />
    </div>
  );
}
