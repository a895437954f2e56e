import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { formatTotal } from '@/lib/api-client';
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
      <PageHeader
        title="Meetings"
        count={meetings.data ? formatTotal(meetings.data) : undefined}
        action={<Button onClick={() => setScheduling(true)}>Schedule Meeting</Button>}
      />
      <Field label="Status" className="max-w-xs">
        <Select
          value={status}
          onValueChange={(v) => setParams(v === 'all' ? {} : { status: v })}
          options={MEETING_FILTERS.map((f) => [f, f === 'all' ? 'All meetings' : f] as const)}
        />
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
