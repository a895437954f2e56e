import { Card, EmptyState, StatTile } from '@/components/ui/states';
import { formatDateTime } from '@/lib/format';

import type { AgentPerformance, AiAnalytics, AiInsight } from '../api/types';

import { fractionPercent, percentOrDash, successBand, successBandClass, toFraction } from './figures';

function AgentCard({ agent }: { agent: AgentPerformance }) {
  const rate = toFraction(agent.successRate);
  const band = agent.totalTasks > 0 && rate !== null ? successBand(rate) : null;
  const title = `${agent.agentType} Agent`;
  return (
    <li aria-label={title} className="rounded-xl bg-white p-4 text-sm shadow-xs ring-1 ring-slate-200">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold break-words text-slate-900">{title}</h3>
          <p className="text-xs text-slate-500">{agent.taskType}</p>
        </div>
        <span data-band={band ?? 'none'} className={`rounded-full px-2 py-0.5 text-xs font-semibold ${band ? successBandClass[band] : 'bg-slate-100 text-slate-700'}`}>
          {band ?? 'No tasks yet'}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1">
        <dt className="text-slate-500">Success rate</dt>
        {/* No tasks, no rate: a dash rather than 0 %. */}
        <dd className="text-right font-semibold tabular-nums">{agent.totalTasks > 0 ? fractionPercent(agent.successRate) : '—'}</dd>
        <dt className="text-slate-500">Accuracy</dt>
        <dd className="text-right tabular-nums">{fractionPercent(agent.averageAccuracy)}</dd>
        <dt className="text-slate-500">Total tasks</dt>
        <dd className="text-right tabular-nums">{agent.totalTasks.toLocaleString()}</dd>
        <dt className="text-slate-500">Training data</dt>
        <dd className="text-right tabular-nums">{agent.trainingDataCount.toLocaleString()}</dd>
        <dt className="text-slate-500">Last training update</dt>
        <dd className="text-right">{agent.lastTrainingUpdate ? formatDateTime(agent.lastTrainingUpdate) : '—'}</dd>
      </dl>
      <p className="mt-2 text-xs text-slate-500">
        {agent.successfulTasks.toLocaleString()} / {agent.totalTasks.toLocaleString()} tasks
      </p>
    </li>
  );
}

/** The agents tab: one card per agent (one per job kind), then the campaigns' real figures. */
export function AgentsPanel({ analytics }: { analytics: AiAnalytics }) {
  const m = analytics.performanceMetrics;
  return (
    <div className="space-y-6">
      {analytics.agentPerformance.length === 0 ? (
        <EmptyState title="No agents yet" />
      ) : (
        <ul aria-label="Agents" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {analytics.agentPerformance.map((a) => (
            <AgentCard key={a.agentId} agent={a} />
          ))}
        </ul>
      )}
      <Card title="Email Campaign Performance">
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatTile label="Active Campaigns" value={m.currentCampaigns.toLocaleString()} />
          <StatTile label="Open Rate" value={percentOrDash(m.openRate)} />
          <StatTile label="Click Rate" value={percentOrDash(m.clickThroughRate)} />
          <StatTile label="Conversion" value={percentOrDash(m.conversionRate)} />
        </div>
      </Card>
    </div>
  );
}

const INSIGHT_CLASS: Record<string, string> = {
  improvement: 'bg-emerald-100 text-emerald-800',
  pattern: 'bg-sky-100 text-sky-800',
};
/** Seed 002 §2: improvement, pattern, anything else shown as destructive. */
const insightClass = (type: string) => INSIGHT_CLASS[type] ?? 'bg-rose-100 text-rose-800';

function InsightItem({ insight }: { insight: AiInsight }) {
  return (
    <li aria-label={insight.title} className="rounded-xl bg-white p-4 text-sm shadow-xs ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs font-medium text-slate-500">{insight.agentType}</span>
        <span data-type={insight.insightType} className={`rounded-full px-2 py-0.5 text-xs font-semibold ${insightClass(insight.insightType)}`}>
          {insight.insightType}
        </span>
        {insight.implemented ? (
          <span className="rounded-full bg-emerald-600 px-2 py-0.5 text-xs font-semibold text-white">Implemented</span>
        ) : insight.actionable ? (
          <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-800">Actionable</span>
        ) : null}
      </div>
      <h3 className="mt-2 font-semibold break-words text-slate-900">{insight.title}</h3>
      <p className="mt-1 break-words text-slate-700">{insight.description}</p>
      <p className="mt-2 flex flex-wrap gap-x-4 text-xs text-slate-500">
        <span>Confidence {fractionPercent(insight.confidence)}</span>
        <span>Impact {fractionPercent(insight.impactScore)}</span>
      </p>
    </li>
  );
}

/** The insights tab: what the data says (reply rate by score band and state, voice outcomes, failing kinds). */
export function InsightsPanel({ insights }: { insights: AiInsight[] }) {
  if (insights.length === 0) {
    return <EmptyState title="No insights yet">Insights appear once campaigns, calls and AI tasks have produced data.</EmptyState>;
  }
  return (
    <ul aria-label="Recent insights" className="grid gap-4 md:grid-cols-2">
      {insights.map((i) => (
        <InsightItem key={i.id} insight={i} />
      ))}
    </ul>
  );
}

/** The training tab: data points per agent, collection and refresh settings. */
export function TrainingPanel({ analytics, refreshMs }: { analytics: AiAnalytics; refreshMs: number | false }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card title="Training Data">
        {analytics.agentPerformance.length === 0 ? (
          <EmptyState title="No agents yet" />
        ) : (
          <ul aria-label="Data points per agent" className="divide-y divide-slate-100 text-sm">
            {analytics.agentPerformance.map((a) => (
              <li key={a.agentId} className="flex justify-between gap-2 py-2">
                <span className="min-w-0 break-words">{a.agentType} Agent</span>
                <span className="tabular-nums">{a.trainingDataCount.toLocaleString()} data points</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Collection">
        <dl className="grid grid-cols-2 gap-y-2 text-sm">
          <dt className="text-slate-500">Collection status</dt>
          <dd>
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">Active</span>
          </dd>
          <dt className="text-slate-500">Total data points</dt>
          <dd className="tabular-nums">{analytics.totalTrainingData.toLocaleString()}</dd>
          <dt className="text-slate-500">Auto-refresh interval</dt>
          <dd>{refreshMs ? `${refreshMs / 1000} seconds` : 'Off'}</dd>
          <dt className="text-slate-500">Task history kept</dt>
          <dd>{analytics.jobRetentionDays.toLocaleString(undefined, { maximumFractionDigits: 1 })} days</dd>
          <dt className="text-slate-500">CRM examples kept</dt>
          <dd>Until deleted</dd>
        </dl>
      </Card>
    </div>
  );
}
