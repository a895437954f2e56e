import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ErrorState, Skeleton } from '@/components/ui/states';
import { TabList } from '@/components/ui/tabs';

import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useUpdateSequence } from '../api/change-sequence';
import { useSequence } from '../api/get-sequence';
import type { Sequence } from '../api/types';
import { EnrollDialog } from './enroll-dialog';
import { EnrollmentsTable } from './enrollments-table';
import { SequenceBuilder } from './sequence-builder';
import { SequenceSettings } from './sequence-settings';
import { waitingText } from './when';

export type DetailSection = 'steps' | 'enrollments' | 'settings';

type Props = {
  id: string;
  section: DetailSection;
  enrollments: { status: string; offset: number };
  onSection: (s: DetailSection) => void;
  onEnrollments: (next: { status: string; offset: number }) => void;
  onBack: () => void;
};

/** The waiting line: why the sequence sends nothing now, and until when. */
export function WaitingLine({ sequence }: { sequence: Sequence }) {
  if (!sequence.waiting) return null;
  return (
    <p role="status" aria-label="Why it waits" data-reason={sequence.waiting.reason} className="text-sm font-medium text-amber-800">
      {waitingText(sequence.waiting)}
    </p>
  );
}

/** One sequence: its waiting line, steps, enrollments and settings; enroll contacts from here. */
export function SequenceDetail({ id, section, enrollments, onSection, onEnrollments, onBack }: Props) {
  const sequence = useSequence(id);
  const [enrolling, setEnrolling] = useState(false);
  const status = useUpdateSequence({
    onSuccess: (s) => toast({ title: s.status === 'active' ? 'Sequence Activated' : 'Sequence Paused', variant: 'success' }),
    onError: (e) => toast({ title: 'Update Failed', description: errorMessage(e), variant: 'destructive' }),
  });
  if (sequence.isPending) return <Skeleton rows={3} label="Loading the sequence" />;
  if (sequence.isError)
    return (
      <div className="space-y-3">
        <Button variant="secondary" onClick={onBack}>
          ← All sequences
        </Button>
        <ErrorState title="Could not load the sequence" error={sequence.error} onRetry={() => sequence.refetch()} />
      </div>
    );
  const s = sequence.data;
  return (
    <section aria-label={`Sequence ${s.name}`} className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <Button variant="ghost" size="sm" onClick={onBack}>
            ← All sequences
          </Button>
          <h2 className="text-xl font-semibold">
            {s.name} <span className="ml-1 rounded-full bg-slate-100 px-2 text-xs font-semibold uppercase">{s.status}</span>
          </h2>
          <p className="text-sm text-slate-600">{s.description}</p>
          <p className="text-xs text-slate-600">
            {s.totalEnrollments} enrolled · {s.activeEnrollments} active · {s.completedEnrollments} completed · up to {s.maxDailyEnrollments} new a day
          </p>
          <WaitingLine sequence={s} />
        </div>
        <div className="flex flex-wrap gap-2">
          {s.status === 'archived' ? null : (
            <Button
              variant="secondary"
              disabled={status.isPending}
              onClick={() => status.mutate({ id: s.id, status: s.status === 'active' ? 'paused' : 'active' })}
            >
              {s.status === 'active' ? 'Pause sequence' : 'Activate sequence'}
            </Button>
          )}
          <Button onClick={() => setEnrolling(true)} disabled={s.status === 'archived'}>
            Enroll Contacts
          </Button>
        </div>
      </div>
      <Tabs.Root value={section} onValueChange={(v) => onSection(v as DetailSection)}>
        <TabList
          label="Sequence sections"
          tabs={[
            ['steps', 'Steps'],
            ['enrollments', 'Enrollments'],
            ['settings', 'Settings'],
          ]}
        />
        <Tabs.Content value="steps">
          <SequenceBuilder sequence={s} />
        </Tabs.Content>
        <Tabs.Content value="enrollments">
          <EnrollmentsTable sequenceId={s.id} status={enrollments.status} offset={enrollments.offset} onChange={onEnrollments} />
        </Tabs.Content>
        <Tabs.Content value="settings">
          {/* Keyed by the saved version: a save elsewhere refreshes the form. */}
          <SequenceSettings key={s.updatedAt} sequence={s} />
        </Tabs.Content>
      </Tabs.Root>
      {enrolling ? <EnrollDialog sequenceId={s.id} onClose={() => setEnrolling(false)} /> : null}
    </section>
  );
}
