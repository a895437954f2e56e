import * as Tabs from '@radix-ui/react-tabs';
import { useState, type ReactNode } from 'react';

import { Card, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { TabList } from '@/components/ui/tabs';
import { useAiAnalytics } from '@/features/ai/api/get-ai-analytics';
import { useAutomationPreview } from '@/features/ai/api/get-automation-preview';
import { useEmailAutomationStatus } from '@/features/ai/api/get-email-automation-status';
import { useMcpStatus } from '@/features/ai/api/get-mcp-status';
import type { AiAnalytics } from '@/features/ai/api/types';
import { AgentsPanel, InsightsPanel, TrainingPanel } from '@/features/ai/components/analytics-panels';
import { EmailAutomationPanel } from '@/features/ai/components/email-automation-panel';
import { fractionPercent, percentOrDash } from '@/features/ai/components/figures';
import { McpPanel } from '@/features/ai/components/mcp-panel';
import { ModelPerformance } from '@/features/ai/components/model-performance';
import { OrchestrationTools } from '@/features/ai/components/orchestration-tools';

/** Seed 002 §9: the page's reads refresh every 30 s while auto-refresh is on. */
export const AUTO_REFRESH_MS = 30_000;

const TABS = [
  ['orchestration', 'Orchestration'],
  ['mcp', 'MCP'],
  ['email-automation', 'Email Automation'],
  ['agents', 'Agents'],
  ['insights', 'Insights'],
  ['training', 'Training'],
  ['config', 'Config'],
] as const;

/** AI Orchestration Center (seed 002 §2, ai-management): real agent analytics, the AI tools and the integrations. */
export function AiManagementRoute() {
  const [autoRefresh, setAutoRefresh] = useState(true);
  const [tab, setTab] = useState<string>('orchestration');
  const refreshMs = autoRefresh ? AUTO_REFRESH_MS : false;
  const analytics = useAiAnalytics(refreshMs);
  const mcp = useMcpStatus(refreshMs);
  const emailAutomation = useEmailAutomationStatus(refreshMs);
  const preview = useAutomationPreview(refreshMs);
  const a = analytics.data;

  // Tabs built from the analytics wait for it, or say why it is missing.
  const withAnalytics = (render: (data: AiAnalytics) => ReactNode) =>
    analytics.isPending ? (
      <Skeleton rows={3} label="Loading AI analytics" />
    ) : analytics.isError ? (
      <p className="text-sm text-slate-600">The AI analytics could not be loaded (see above).</p>
    ) : (
      render(analytics.data)
    );

  return (
    <div className="space-y-6">
      <title>AI Orchestration Center · Prospector</title>
      <h1 className="text-2xl font-bold tracking-tight">AI Orchestration Center</h1>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatTile label="AI Agents" value={a ? a.totalAgents.toLocaleString() : '—'} />
        <StatTile label="Training Data" value={a ? a.totalTrainingData.toLocaleString() : '—'} />
        <StatTile label="Average Success Rate" value={a ? fractionPercent(a.averageSuccessRate) : '—'} />
        <StatTile
          label="Tasks Routed"
          value={a ? a.aiOrchestration.tasksRouted.toLocaleString() : '—'}
          note={a ? `${percentOrDash(a.aiOrchestration.efficiency)} succeeded` : undefined}
        />
      </div>
      {analytics.isError ? (
        <ErrorState title="Could not load the AI analytics" error={analytics.error} onRetry={() => void analytics.refetch()} />
      ) : a ? (
        <ModelPerformance models={a.modelPerformance} />
      ) : null}
      <Tabs.Root value={tab} onValueChange={setTab}>
        <TabList label="AI management areas" tabs={TABS} />
        {/* The tools stay mounted (hidden): their results and running jobs survive a look at another tab. */}
        <Tabs.Content value="orchestration" forceMount hidden={tab !== 'orchestration'}>
          <OrchestrationTools />
        </Tabs.Content>
        <Tabs.Content value="mcp">
          <McpPanel query={mcp} />
        </Tabs.Content>
        <Tabs.Content value="email-automation">
          <EmailAutomationPanel status={emailAutomation} preview={preview} />
        </Tabs.Content>
        <Tabs.Content value="agents">{withAnalytics((data) => <AgentsPanel analytics={data} />)}</Tabs.Content>
        <Tabs.Content value="insights">{withAnalytics((data) => <InsightsPanel insights={data.recentInsights} />)}</Tabs.Content>
        <Tabs.Content value="training">{withAnalytics((data) => <TrainingPanel analytics={data} refreshMs={refreshMs} />)}</Tabs.Content>
        <Tabs.Content value="config">
          <Card title="Configuration">
            <div className="space-y-3 text-sm">
              <label className="flex items-center gap-3">
                <input
                  type="checkbox"
                  role="switch"
                  aria-checked={autoRefresh}
                  checked={autoRefresh}
                  onChange={(e) => setAutoRefresh(e.target.checked)}
                  className="size-4 accent-indigo-600"
                />
                <span>Auto-refresh every {AUTO_REFRESH_MS / 1000} seconds</span>
              </label>
              <p className="text-slate-600">
                {autoRefresh ? 'Analytics, integrations and automation figures refresh on their own.' : 'Auto-refresh is off: figures change when the page is opened again.'}
              </p>
              <p>
                Training data collection: <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">Active</span>
              </p>
            </div>
          </Card>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
