import { StatTile } from '@/components/ui/states';

import { useReplyRules } from '../api/get-reply-rules';
import type { Sequence } from '../api/types';

/** The average per-sequence completion percentage, over sequences with enrollments (seed 002 §9). */
export function averageCompletion(sequences: Sequence[]): number {
  const enrolled = sequences.filter((s) => s.totalEnrollments > 0);
  if (enrolled.length === 0) return 0;
  return Math.round(enrolled.reduce((n, s) => n + s.completionRate, 0) / enrolled.length);
}

/** The four tiles above the tabs. */
export function SequenceStats({ sequences: list }: { sequences: Sequence[] }) {
  const rules = useReplyRules();
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <StatTile label="Active Sequences" value={list.filter((s) => s.status === 'active').length} />
      <StatTile label="Total Enrollments" value={list.reduce((n, s) => n + s.totalEnrollments, 0).toLocaleString()} />
      <StatTile label="Avg. Completion Rate" value={`${averageCompletion(list)}%`} />
      <StatTile label="Reply Rules" value={rules.data?.length ?? 0} />
    </div>
  );
}
