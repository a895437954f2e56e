import * as Tabs from '@radix-ui/react-tabs';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { ScoreBadge } from '@/components/ui/score-badge';
import { EmptyState, StatTile } from '@/components/ui/states';
import { TabList } from '@/components/ui/tabs';
import { useBulkAiScore } from '@/features/automation/api/bulk-ai-score';
import { useAutomationOverview } from '@/features/automation/api/get-automation-overview';
import { automationKeys } from '@/features/automation/api/query-keys';
import { useSendReminders } from '@/features/automation/api/send-reminders';
import { getContactsQueryOptions } from '@/features/contacts/api/get-contacts';
import { contactsKeys } from '@/features/contacts/api/query-keys';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { serverMessageOr } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { formatDollars } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Job } from '@/types/api';

const RECENT_CONTACTS = 5;
/** Contacts sent to bulk scoring at once (the server's cap is higher). */
const SCORE_BATCH = 200;

type ScoreResult = { scored: number; highValueCount: number; averageScore: number };

function ScoringProgress({ job }: { job: Job | undefined }) {
  return (
    <ProgressBar
      label="Bulk scoring progress"
      percent={job?.status === 'succeeded' ? 100 : (job?.progress?.percent ?? 0)}
      message={job?.progress?.message ?? job?.status ?? 'queued'}
    />
  );
}

/** Automation (seed 002 §2, business-development): campaign automation, scoring, meetings, payments. */
export function AutomationRoute() {
  const o = useAutomationOverview();
  const contacts = useQuery(getContactsQueryOptions({ limit: SCORE_BATCH, offset: 0 }));
  const [scoringJob, setScoringJob] = useState<string | null>(null);

  const score = useBulkAiScore({
    onSuccess: (a) => {
      if (a.jobId) setScoringJob(a.jobId);
      else toast({ title: 'Nothing to Score', description: a.message });
    },
    onError: (e) => toast({ title: 'Scoring Failed', description: serverMessageOr(e, 'Failed to score contacts'), variant: 'destructive' }),
  });
  const scored = (job: Job) => {
    setScoringJob(null);
    if (job.status !== 'succeeded') {
      toast({ title: 'Scoring Failed', description: job.error ?? `The scoring was ${job.status}.`, variant: 'destructive' });
      return;
    }
    const r = job.result as ScoreResult;
    toast({
      title: 'Bulk Scoring Complete',
      description: `${r.scored} contacts scored, ${r.highValueCount} high-value (85+), average ${r.averageScore}.`,
      variant: 'success',
    });
  };
  const scoring = useJobOutcome(scoringJob, {
    onDone: scored,
    onError: () => setScoringJob(null),
    invalidate: [automationKeys.all, contactsKeys.all],
  });
  const reminders = useSendReminders({
    onSuccess: (r) =>
      toast({
        title: 'Reminders Sent',
        description: `${r.emailsSent} emails and ${r.smsSent} text messages for ${r.meetings} meetings.`,
        variant: 'success',
      }),
    onError: (e) => toast({ title: 'Reminders Failed', description: serverMessageOr(e, 'Failed to send reminders'), variant: 'destructive' }),
  });

  const recent = contacts.data?.items.slice(0, RECENT_CONTACTS) ?? [];
  return (
    <div className="space-y-6">
      <title>Automation · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Business Development Automation</h1>
        <div className="flex gap-2">
          <Button
            onClick={() => score.mutate(contacts.data?.items.map((c) => c.id) ?? [])}
            disabled={score.isPending || scoringJob !== null || !contacts.data?.items.length}
          >
            {scoringJob ? 'Scoring...' : 'Bulk AI Score'}
          </Button>
          <Button variant="secondary" onClick={() => reminders.mutate()} disabled={reminders.isPending}>
            {reminders.isPending ? 'Sending...' : 'Send Reminders'}
          </Button>
        </div>
      </div>
      {o.failed.length > 0 ? (
        <p role="status" className="text-sm text-amber-800">
          Some figures could not be loaded and show as zero ({o.failed.join(', ')}).
        </p>
      ) : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatTile label="Active Campaigns" value={o.metrics.active} note={`${o.metrics.completed} completed`} />
        <StatTile label="High-Value Leads" value={o.insights.highValueCount} note={`Average score ${o.insights.averageScore}`} />
        <StatTile label="Revenue" value={formatDollars(o.payments.totalRevenue)} note={`${o.payments.totalTransactions} transactions`} />
        <StatTile label="Meetings Scheduled" value={o.calendar.upcomingMeetings} note={`${o.calendar.totalMeetings} in total`} />
      </div>
      {scoringJob ? <ScoringProgress job={scoring.data} /> : null}
      <Tabs.Root defaultValue="campaigns">
        <TabList
          label="Automation areas"
          tabs={[['campaigns', 'Campaign Automation'], ['scoring', 'AI Lead Scoring'], ['meetings', 'Meeting Management'], ['payments', 'Payment Processing']]}
        />
        <Tabs.Content value="campaigns">
          <p className="mb-2 text-sm text-slate-600">
            {o.metrics.active} active · {o.metrics.completed} completed · {o.metrics.paused} paused · {o.metrics.failed} failed
          </p>
          {o.executions.length === 0 ? (
            <EmptyState title="No active enrollments">Contacts enrolled in an active sequence show here.</EmptyState>
          ) : (
            <ul aria-label="Active enrollments" className="space-y-1 text-sm">
              {o.executions.map((e) => (
                <li key={e.id}>
                  Contact {e.contactId}: step {e.currentStep + 1}, next {formatDateTime(e.nextActionAt)}
                </li>
              ))}
            </ul>
          )}
        </Tabs.Content>
        <Tabs.Content value="scoring">
          <ul aria-label="Score distribution" className="mb-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
            {o.insights.scoringDistribution.map((b) => (
              <li key={b.range} className="rounded-md bg-white p-2 ring-1 ring-slate-200">
                {b.range}: <span className="font-semibold">{b.count}</span>
              </li>
            ))}
          </ul>
          <ul aria-label="Recent contacts" className="space-y-1 text-sm">
            {recent.map((c) => (
              <li key={c.id} className="flex items-center gap-2">
                {c.firstName} {c.lastName} <ScoreBadge score={c.score} />
              </li>
            ))}
          </ul>
        </Tabs.Content>
        <Tabs.Content value="meetings">
          {o.meetings.length === 0 ? (
            <EmptyState title="No upcoming meetings" />
          ) : (
            <ul aria-label="Upcoming meetings" className="space-y-1 text-sm">
              {o.meetings.map((m) => (
                <li key={m.id}>
                  <span className="font-medium">{m.title}</span> · {formatDateTime(m.startTime)}
                  {m.location ? ` · ${m.location}` : ''}
                </li>
              ))}
            </ul>
          )}
        </Tabs.Content>
        <Tabs.Content value="payments">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <StatTile label="Total Revenue" value={formatDollars(o.payments.totalRevenue)} />
            <StatTile label="Transactions" value={o.payments.totalTransactions} />
            <StatTile label="Successful" value={o.payments.successfulPayments} />
            <StatTile label="Failed" value={o.payments.failedPayments} />
          </dl>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
