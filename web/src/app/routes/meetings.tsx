import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { MEETING_FILTERS, useMeetings, type MeetingFilter } from '@/features/meetings/api/get-meetings';
import { MeetingCard } from '@/features/meetings/components/meeting-card';
import { MeetingFormDialog } from '@/features/meetings/components/meeting-form-dialog';

export function MeetingsRoute() {
  const [params, setParams] = useSearchParams();
  const [scheduling, setScheduling] = useState(false);
  const status: MeetingFilter = MEETING_FILTERS.find((f) => f === params.get('status')) ?? 'all';
  const meetings = useMeetings(status);

  return (
    <div className="space-y-6">
      <title>Meetings · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Meetings</h1>
        <Button onClick={() => setScheduling(true)}>Schedule Meeting</Button>
      </div>
      <Field label="Status" className="max-w-xs">
        <select
          className={inputClass}
          value={status}
          onChange={(e) => setParams(e.target.value === 'all' ? {} : { status: e.target.value })}
        >
          {MEETING_FILTERS.map((f) => (
            <option key={f} value={f}>
              {f === 'all' ? 'All meetings' : f}
            </option>
          ))}
        </select>
      </Field>
      {meetings.isPending ? (
        <Skeleton rows={3} label="Loading meetings" />
      ) : meetings.isError ? (
        <ErrorState title="Failed to load meetings" error={meetings.error} onRetry={() => void meetings.refetch()} />
      ) : meetings.data.items.length === 0 ? (
        <EmptyState title={status === 'all' ? 'No meetings yet' : `No ${status} meetings`}>
          <Button className="mt-1" onClick={() => setScheduling(true)}>
            Schedule your first meeting
          </Button>
        </EmptyState>
      ) : (
        <ul aria-label="Meetings" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {meetings.data.items.map((m) => (
            <MeetingCard key={m.id} meeting={m} />
          ))}
        </ul>
      )}
      {scheduling ? <MeetingFormDialog onClose={() => setScheduling(false)} /> : null}
    </div>
  );
}
