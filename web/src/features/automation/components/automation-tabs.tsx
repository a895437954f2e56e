import * as Tabs from '@radix-ui/react-tabs';

import { ScoreBadge } from '@/components/ui/score-badge';
import { EmptyState, StatTile } from '@/components/ui/states';
import { TabList } from '@/components/ui/tabs';
import { formatDateTime } from '@/lib/format';
import { formatDollars } from '@/lib/rules';
import type { Contact } from '@/types/api';

import type { AutomationOverview } from '../api/get-automation-overview';

/** The four areas: campaign automation, lead scoring (with the most recent contacts), meetings, payments. */
export function AutomationTabs({ overview: o, recent }: { overview: AutomationOverview; recent: Contact[] }) {
  return (
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
  );
}
