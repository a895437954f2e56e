import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { EmptyState, ErrorState, StatTile } from '@/components/ui/states';
import { TabList } from '@/components/ui/tabs';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';

import { useChangeBulkCampaign } from '../api/change-bulk-campaign';
import { useBulkCampaigns } from '../api/get-bulk-campaigns';
import { useSendBulkCampaign } from '../api/send-bulk-campaign';
import { campaignsKeys } from '../api/query-keys';
import { ratePercent, type BulkCampaign } from '../api/types';
import { BulkCampaignCard } from './bulk-campaign-card';

const RECENT = 5;
const ACTIVE = ['scheduled', 'sending', 'sent', 'failed'];

const failure = (error: Error) => (error instanceof ApiError && error.serverMessage) || 'Failed to send campaign';

type Followed = { campaignId: string; jobId: string };

/** Follows the send job a button started; a failed job is reported on its campaign's card. */
function SendJobFollower({ followed, onFailed }: { followed: Followed; onFailed: (campaignId: string, error: string) => void }) {
  useJobOutcome(followed.jobId, {
    invalidate: [campaignsKeys.all],
    onDone: (job) => {
      if (job.status === 'succeeded') return;
      const why = job.error ?? (job.status === 'cancelled' ? 'the sending job was cancelled' : 'the sending job failed');
      onFailed(followed.campaignId, why);
      toast({ title: 'Send Failed', description: why, variant: 'destructive' });
    },
    onError: (e) => onFailed(followed.campaignId, failure(e)),
  });
  return null;
}

/** The bulk campaigns in three views: the most recent, the active ones with live delivery, and their rates. */
export function BulkCampaignTabs() {
  const campaigns = useBulkCampaigns();
  // `?campaign=<id>` (a search result): that campaign comes first in the overview, marked.
  const [params] = useSearchParams();
  const target = params.get('campaign');
  const [followed, setFollowed] = useState<Followed[]>([]);
  const [sendErrors, setSendErrors] = useState<Record<string, string>>({});
  const follow = (campaignId: string, jobId: string) => {
    setSendErrors((errors) => Object.fromEntries(Object.entries(errors).filter(([id]) => id !== campaignId)));
    setFollowed((f) => [...f.filter((x) => x.campaignId !== campaignId), { campaignId, jobId }]);
  };
  const send = useSendBulkCampaign({
    onSuccess: (r, id) => {
      follow(id, r.jobId);
      toast({ title: 'Campaign Sending', description: `Sending to ${r.totalRecipients} recipients.`, variant: 'success' });
    },
    onError: (e) => toast({ title: 'Send Failed', description: failure(e), variant: 'destructive' }),
  });
  const change = useChangeBulkCampaign({
    onError: (e) => toast({ title: 'Update Failed', description: failure(e), variant: 'destructive' }),
    onJob: follow,
  });
  const busy = send.isPending || change.isPending;

  const card = (c: BulkCampaign) => (
    <BulkCampaignCard
      key={c.id}
      campaign={c}
      busy={busy}
      sendError={sendErrors[c.id] ?? null}
      highlighted={c.id === target}
      onSend={() => send.mutate(c.id)}
      onAction={(action) => change.mutate({ id: c.id, action })}
    />
  );

  let overview;
  let active;
  let analytics;
  if (campaigns.isPending) {
    overview = active = analytics = <p className="text-sm text-slate-500">Loading campaigns...</p>;
  } else if (campaigns.isError) {
    overview = active = analytics = (
      <ErrorState title="Could not load campaigns" error={campaigns.error} onRetry={() => campaigns.refetch()} />
    );
  } else {
    const all = campaigns.data;
    overview =
      all.length === 0 ? (
        <EmptyState title="No campaigns yet">No campaigns created yet. Create your first bulk email campaign to get started.</EmptyState>
      ) : (
        <ul aria-label="Recent campaigns" className="space-y-3">
          {[...all.filter((c) => c.id === target), ...all.filter((c) => c.id !== target)].slice(0, RECENT).map(card)}
        </ul>
      );
    const running = all.filter((c) => ACTIVE.includes(c.status));
    active =
      running.length === 0 ? (
        <EmptyState title="Nothing active">No active campaigns at the moment.</EmptyState>
      ) : (
        <ul aria-label="Active campaigns" className="space-y-3">
          {running.map(card)}
        </ul>
      );
    const totals = all.reduce(
      (t, c) => ({
        sent: t.sent + c.stats.sent,
        delivered: t.delivered + c.stats.delivered,
        opened: t.opened + c.stats.opened,
        clicked: t.clicked + c.stats.clicked,
      }),
      { sent: 0, delivered: 0, opened: 0, clicked: 0 },
    );
    analytics = (
      <div className="space-y-4">
        <table className="w-full text-sm" aria-label="Campaign rates">
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr>
              <th scope="col">Campaign</th>
              <th scope="col">Opened</th>
              <th scope="col">Clicked</th>
            </tr>
          </thead>
          <tbody>
            {all.slice(0, RECENT).map((c) => (
              <tr key={c.id} className="border-t border-slate-100">
                <th scope="row" className="py-1 text-left font-normal">
                  {c.name}
                </th>
                <td className="tabular-nums">{ratePercent(c.stats.opened, c.stats.sent)}%</td>
                <td className="tabular-nums">{ratePercent(c.stats.clicked, c.stats.sent)}%</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <StatTile label="Sent" value={totals.sent.toLocaleString()} />
          <StatTile label="Delivered" value={totals.delivered.toLocaleString()} />
          <StatTile label="Opened" value={totals.opened.toLocaleString()} />
          <StatTile label="Clicked" value={totals.clicked.toLocaleString()} />
        </div>
      </div>
    );
  }

  return (
    <Tabs.Root defaultValue="overview">
      {followed.map((f) => (
        <SendJobFollower
          key={f.jobId}
          followed={f}
          onFailed={(campaignId, error) => setSendErrors((e) => ({ ...e, [campaignId]: error }))}
        />
      ))}
      <TabList
        label="Campaign views"
        tabs={[['overview', 'Campaign Overview'], ['active', 'Active Campaigns'], ['analytics', 'Analytics']]}
      />
      <Tabs.Content value="overview">{overview}</Tabs.Content>
      <Tabs.Content value="active">{active}</Tabs.Content>
      <Tabs.Content value="analytics">{analytics}</Tabs.Content>
    </Tabs.Root>
  );
}
