import type { UseQueryResult } from '@tanstack/react-query';

import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';

import type { SingleCampaign } from '../api/single-campaigns';

const STATUS_CLASS: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800 animate-pulse',
  completed: 'bg-sky-100 text-sky-800',
  paused: 'bg-amber-100 text-amber-800',
  draft: 'bg-slate-100 text-slate-700',
};

/** The single campaigns with their figures. */
export function SingleCampaignList({ campaigns }: { campaigns: UseQueryResult<SingleCampaign[]> }) {
  const list = campaigns.data ?? [];
  return (
    <Card title="Active Campaigns">
      {campaigns.isPending ? (
        <Skeleton rows={3} label="Loading campaigns" />
      ) : campaigns.isError ? (
        <ErrorState title="Could not load campaigns" error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState title="No campaigns yet" />
      ) : (
        <ul aria-label="Campaigns" className="space-y-2">
          {list.map((c) => (
            <li key={c.id} aria-label={c.name} className="rounded-lg p-3 ring-1 ring-slate-200">
              <div className="flex items-center justify-between gap-2">
                <span className="font-medium">{c.name}</span>
                <span className={`rounded-full px-2 text-xs font-semibold uppercase ${STATUS_CLASS[c.status] ?? ''}`}>{c.status}</span>
              </div>
              <p className="text-sm text-slate-500">{c.description}</p>
              <p className="text-xs text-slate-600">
                {c.totalRecipients} recipients · {c.emailsSent} sent · {c.openRate.toFixed(1)}% opened · {c.aiModel}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
