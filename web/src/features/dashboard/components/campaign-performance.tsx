import { Button } from '@/components/ui/button';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import { formatPercent } from '@/lib/rules';
import { toast } from '@/stores/toasts';

import { useCampaignPerformance } from '../api/get-campaign-performance';
import { TIMEFRAMES, type Timeframe } from '../api/query-keys';

type Props = { timeframe: Timeframe; onTimeframeChange: (t: Timeframe) => void };

export function CampaignPerformanceCard({ timeframe, onTimeframeChange }: Props) {
  const performance = useCampaignPerformance(timeframe);
  const data = performance.data;

  const choose = (t: Timeframe) => {
    if (t === timeframe) return;
    onTimeframeChange(t);
    toast({ title: 'Timeframe Updated', description: `Showing the last ${t} days.` });
  };

  const rate = (value: number, needsEmail: boolean) =>
    needsEmail && data && !data.emailDataAvailable ? 'No emails sent' : formatPercent(value);

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
        <dl className="grid grid-cols-3 gap-3 text-center">
          {[
            ['Delivery rate', rate(performance.data.deliveryRate, true)],
            ['Response rate', rate(performance.data.responseRate, true)],
            ['Meeting rate', rate(performance.data.meetingRate, false)],
          ].map(([label, value]) => (
            <div key={label} className="rounded-lg bg-slate-50 p-3">
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}
