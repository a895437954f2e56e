import { useId, useState } from 'react';
import { Area, AreaChart, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { ErrorState } from '@/components/ui/states';
import { Select } from '@/components/ui/select';

import { type History, useHistory } from '../api/get-history';
import { jobKindLabel } from '../kind-labels';

/** One bucket of the charts: what finished in it, with the gaps filled with zeros. */
export type ChartPoint = {
  at: number;
  label: string;
  /** Jobs finished per minute in the bucket. */
  perMinute: number;
  finished: number;
  succeeded: number;
  failed: number;
  /** failed / (succeeded + failed), in percent; null when nothing succeeded or failed. */
  failureRate: number | null;
};

export type HistoryTotals = { finished: number; failed: number; failureRate: number | null };

const CHART_MINUTES = 60;

const timeLabel = (ms: number) =>
  new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** Every bucket from `from` to `until`, summed over all kinds or one, zeros where nothing finished. */
export function shapeHistory(history: History, kind: string | null): ChartPoint[] {
  const step = history.bucketSeconds * 1000;
  const from = Date.parse(history.from);
  const until = Date.parse(history.until);
  const sums = new Map<number, { succeeded: number; failed: number; cancelled: number }>();
  for (const b of history.buckets) {
    if (kind && b.kind !== kind) continue;
    const at = Date.parse(b.at);
    const s = sums.get(at) ?? { succeeded: 0, failed: 0, cancelled: 0 };
    s.succeeded += b.succeeded;
    s.failed += b.failed;
    s.cancelled += b.cancelled;
    sums.set(at, s);
  }
  const points: ChartPoint[] = [];
  for (let at = from; at <= until; at += step) {
    const s = sums.get(at) ?? { succeeded: 0, failed: 0, cancelled: 0 };
    const finished = s.succeeded + s.failed + s.cancelled;
    const decided = s.succeeded + s.failed;
    points.push({
      at,
      label: timeLabel(at),
      perMinute: finished / (history.bucketSeconds / 60),
      finished,
      succeeded: s.succeeded,
      failed: s.failed,
      failureRate: decided > 0 ? (100 * s.failed) / decided : null,
    });
  }
  return points;
}

export function totals(points: ChartPoint[]): HistoryTotals {
  const finished = points.reduce((n, p) => n + p.finished, 0);
  const failed = points.reduce((n, p) => n + p.failed, 0);
  const decided = failed + points.reduce((n, p) => n + p.succeeded, 0);
  return { finished, failed, failureRate: decided > 0 ? (100 * failed) / decided : null };
}

export function summaryText({ finished, failureRate }: HistoryTotals): string {
  if (finished === 0) return 'Nothing finished in the last hour.';
  const rate = failureRate === null ? 'none succeeded or failed' : `${failureRate.toFixed(1)} % failed`;
  return `${finished.toLocaleString()} finished, ${rate} in the last hour.`;
}

/** Throughput and failure rate over the last hour, for all kinds or one. */
export function QueueCharts({ kinds }: { kinds: string[] }) {
  const [kind, setKind] = useState('');
  const history = useHistory(CHART_MINUTES);
  const selectId = useId();

  let body;
  if (history.isPending) {
    body = <div className="h-40 animate-pulse rounded bg-slate-100" aria-label="Loading charts" />;
  } else if (history.isError) {
    body = <ErrorState title="Could not load the last hour" error={history.error} onRetry={() => history.refetch()} />;
  } else {
    const points = shapeHistory(history.data, kind || null);
    const sum = totals(points);
    body = (
      <>
        <p className="text-sm text-slate-700" data-testid="history-summary">
          {summaryText(sum)}
        </p>
        <div className="grid gap-4 md:grid-cols-2">
          <figure>
            <figcaption className="text-xs font-medium text-slate-500">Finished per minute</figcaption>
            {/* Hidden from screen readers (the figures are in text beside it), so not focusable either. */}
            <div aria-hidden="true" className="h-36">
              <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: 144 }}>
                <AreaChart accessibilityLayer={false} data={points} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
                  <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={24} />
                  <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
                  <Tooltip formatter={(value) => [value, 'per minute']} />
                  <Area dataKey="perMinute" stroke="#4f46e5" fill="#c7d2fe" isAnimationActive={false} />
                </AreaChart>
              </ResponsiveContainer>
            </div>
          </figure>
          <figure>
            <figcaption className="text-xs font-medium text-slate-500">Failure rate (%)</figcaption>
            <div aria-hidden="true" className="h-36">
              <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: 144 }}>
                <LineChart accessibilityLayer={false} data={points} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
                  <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={24} />
                  <YAxis domain={[0, 100]} tick={{ fontSize: 11 }} />
                  <Tooltip formatter={(value) => [`${Number(value).toFixed(1)} %`, 'failed']} />
                  <Line dataKey="failureRate" stroke="#dc2626" dot={false} connectNulls isAnimationActive={false} />
                </LineChart>
              </ResponsiveContainer>
            </div>
          </figure>
        </div>
      </>
    );
  }

  return (
    <section aria-labelledby={`${selectId}-title`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${selectId}-title`} className="text-base font-semibold">
          Last hour
        </h2>
        <label htmlFor={selectId} className="flex items-center gap-2 text-sm text-slate-600">
          Chart kind
          <Select
            id={selectId}
            size="sm"
            className="w-44"
            value={kind}
            onValueChange={setKind}
            options={[['', 'All kinds'], ...kinds.map((k) => [k, jobKindLabel(k)] as const)]}
          />
        </label>
      </div>
      {body}
    </section>
  );
}
