import { Button } from '@/components/ui/button';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import { formatPercent } from '@/lib/rules';
import { toast } from '@/stores/toasts';

import { useCampaignPerformance } from '../api/get-campaign-performance';
import { TIMEFRAMES, type Timeframe } from '../api/query-keys';

type Props = { timeframe: Timeframe; onTimeframeChange: (t: Timeframe) => void };

/** Email and meeting figures of the last 7, 30 or 90 days, counted like every other screen's. */
export function CampaignPerformanceCard({ timeframe, onTimeframeChange }: Props) {
  const performance = useCampaignPerformance(timeframe);

  const choose = (t: Timeframe) => {
    if (t === timeframe) return;
    onTimeframeChange(t);
    toast({ title: 'Timeframe Updated', description: `Showing the last ${t} days.` });
  };

  return (
    <Card
      title="Campaign Performance"
      actions={
        <div role="group" aria-label="Timeframe" className="flex gap-1">
          {TIMEFRAMES.map((t) => (
            <Button
              key={t}
              size="sm"
              variant={t === timeframe ? 'primary' : 'secondary'}
              aria-pressed={t === timeframe}
              onClick={() => choose(t)}
            >
              {t}D
            </Button>
          ))}
        </div>
      }
    >
      {performance.isPending ? (
        <Skeleton rows={1} label="Loading campaign performance" />
      ) : performance.isError ? (
        <ErrorState title="Failed to load campaign performance" error={performance.error} onRetry={() => void performance.refetch()} />
      ) : (
        (() => {
          const p = performance.data;
          const e = p.emails;
          const rate = (value: number) => (p.emailDataAvailable ? formatPercent(value) : 'No emails sent');
          return (
            <div className="space-y-3">
              <p className="text-xs text-slate-500">Last {p.timeframe} days</p>
              {/* A named group per figure, each holding its own <dl> (a <dl> may not hold groups). */}
              <div role="group" aria-label="Campaign rates" className="grid grid-cols-2 gap-3 text-center sm:grid-cols-4">
                {[
                  ['Emails sent', e.sent.toLocaleString()],
                  ['Delivery rate', rate(p.deliveryRate)],
                  ['Response rate', rate(p.responseRate)],
                  ['Meeting rate', formatPercent(p.meetingRate)],
                ].map(([label, value]) => (
                  <div key={label} role="group" aria-label={label} className="rounded-lg bg-slate-50 p-3">
                    <dl>
                      <dt className="text-xs text-slate-500">{label}</dt>
                      <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
                    </dl>
                  </div>
                ))}
              </div>
              {p.emailDataAvailable ? (
                <div role="group" aria-label="Email counts" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
                  {(
                    [
                      ['Delivered', e.delivered],
                      ['Opened', e.opened],
                      ['Clicked', e.clicked],
                      ['Replied', e.replied],
                      ['Bounced', e.bounced],
                      ['Unsubscribed', e.unsubscribed],
                      ['Complaints', e.complained],
                    ] as const
                  ).map(([label, value]) => (
                    <div key={label} role="group" aria-label={label}>
                      <dl className="flex gap-1">
                        <dt>{label}</dt>
                        <dd className="font-semibold tabular-nums">{value.toLocaleString()}</dd>
                      </dl>
                    </div>
                  ))}
                </div>
              ) : null}
            </div>
          );
        })()
      )}
    </Card>
  );
}
