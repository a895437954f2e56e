import { Button } from '@/components/ui/button';
import { StatusPill } from '@/components/ui/score-badge';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { formatDateTime } from '@/lib/format';

import { useVoiceCalls } from '../api/get-voice-calls';
import { SimulatedTag } from './call-detail';

/** The latest calls with their outcome; View opens one (not while a call is being placed). */
export function RecentCalls({ viewDisabled, onView }: { viewDisabled: boolean; onView: (callId: string) => void }) {
  const calls = useVoiceCalls();
  const recent = calls.data ?? [];
  return (
    <Card title="Recent Calls">
      {calls.isPending ? (
        <Skeleton rows={2} label="Loading calls" />
      ) : calls.isError ? (
        <ErrorState title="Could not load the calls" error={calls.error} onRetry={() => void calls.refetch()} />
      ) : recent.length === 0 ? (
        <EmptyState title="No calls yet" />
      ) : (
        <ul aria-label="Recent calls" className="divide-y divide-slate-100">
          {recent.map((c) => (
            <li key={c.id} aria-label={`${c.contactName} ${formatDateTime(c.createdAt)}`} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div className="min-w-0">
                <p className="font-medium break-words">
                  {c.contactName} <span className="font-normal text-slate-500">· {c.agentName}</span>
                </p>
                <p className="text-xs text-slate-500">
                  {formatDateTime(c.scheduledFor ?? c.createdAt)}
                  {c.outcome ? ` · ${c.outcome.replaceAll('_', ' ')}` : ''}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <StatusPill status={c.status} />
                <SimulatedTag call={c} />
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={viewDisabled}
                  onClick={() => onView(c.id)}
                  aria-label={`View call with ${c.contactName}`}
                >
                  View
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
