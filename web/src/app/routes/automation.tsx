import { Button } from '@/components/ui/button';
import { StatTile } from '@/components/ui/states';
import { useAutomationOverview } from '@/features/automation/api/get-automation-overview';
import { AutomationTabs } from '@/features/automation/components/automation-tabs';
import { ScoringProgress } from '@/features/automation/components/scoring-progress';
import { SendRemindersButton } from '@/features/automation/components/send-reminders-button';
import { useBulkScoring } from '@/features/automation/hooks/use-bulk-scoring';
import { useContacts } from '@/features/contacts/api/get-contacts';
import { formatDollars } from '@/lib/rules';

const RECENT_CONTACTS = 5;

/** Automation (seed 002 §2, business-development): campaign automation, scoring, meetings, payments. */
export function AutomationRoute() {
  const o = useAutomationOverview();
  const contacts = useContacts({ limit: RECENT_CONTACTS, offset: 0 });
  const scoring = useBulkScoring();
  const scoringJob = scoring.jobId;

  const recent = contacts.data?.items.slice(0, RECENT_CONTACTS) ?? [];
  return (
    <div className="space-y-6">
      <title>Automation · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Business Development Automation</h1>
        <div className="flex gap-2">
          <Button
            onClick={() => scoring.start({ contactFilter: {} })}
            disabled={scoring.starting || scoringJob !== null}
          >
            {scoringJob ? 'Scoring...' : 'Bulk AI Score'}
          </Button>
          <SendRemindersButton />
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
      {scoringJob ? <ScoringProgress job={scoring.job} /> : null}
      <AutomationTabs overview={o} recent={recent} />
    </div>
  );
}
