import { describe, expect, it } from 'vitest';

import { shapeHistory, summaryText, totals } from './queue-charts';

const history = {
  bucketSeconds: 60,
  from: '2026-11-22T14:00:00.000Z',
  until: '2026-11-22T14:04:30.000Z',
  buckets: [
    { at: '2026-11-22T14:01:00.000Z', kind: 'noop', succeeded: 3, failed: 1, cancelled: 0 },
    { at: '2026-11-22T14:01:00.000Z', kind: 'email_send', succeeded: 6, failed: 0, cancelled: 2 },
    { at: '2026-11-22T14:03:00.000Z', kind: 'noop', succeeded: 0, failed: 2, cancelled: 0 },
  ],
};

describe('shapeHistory', () => {
  it('fills every minute between from and until, zeros where nothing finished', () => {
    const points = shapeHistory(history, null);
    expect(points.map((p) => p.finished)).toEqual([0, 12, 0, 2, 0]);
    expect(points.map((p) => p.failureRate)).toEqual([null, 10, null, 100, null]);
  });

  it('keeps one kind only when asked', () => {
    const points = shapeHistory(history, 'noop');
    expect(points.map((p) => p.finished)).toEqual([0, 4, 0, 2, 0]);
    expect(summaryText(totals(points))).toBe('6 finished, 50.0 % failed in the last hour.');
  });

  it('gives a rate per minute for wider buckets', () => {
    const wide = { ...history, bucketSeconds: 300, until: '2026-11-22T14:00:00.000Z', buckets: [
      { at: '2026-11-22T14:00:00.000Z', kind: 'noop', succeeded: 10, failed: 0, cancelled: 0 },
    ] };
    expect(shapeHistory(wide, null)[0]?.perMinute).toBe(2);
  });

  it('says so when nothing finished', () => {
    expect(summaryText(totals(shapeHistory({ ...history, buckets: [] }, null)))).toBe(
      'Nothing finished in the last hour.',
    );
  });
});
