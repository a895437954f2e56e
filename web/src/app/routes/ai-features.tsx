import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';

import { TabList } from '@/components/ui/tabs';
import type { AiSource } from '@/features/ai/api/types';
import { AiOverview } from '@/features/ai/components/ai-overview';
import { ContentGen } from '@/features/ai/components/content-gen';
import { DocumentAi } from '@/features/ai/components/document-ai';
import { InsightsGen } from '@/features/ai/components/insights-gen';

const TABS = [
  ['document', 'Document AI'],
  ['content', 'Content Gen'],
  ['insights', 'Insights'],
  ['overview', 'AI Overview'],
] as const;

/** AI Features (seed 002 §2): Document AI, Content Gen, Insights and an overview of what answers them. */
export function AiFeaturesRoute() {
  // The last answer's source tells the overview whether the model or the templates answered.
  const [last, setLast] = useState<AiSource | null>(null);
  const [tab, setTab] = useState<string>('document');
  return (
    <div className="space-y-6">
      <title>AI Features · Prospector</title>
      <h1 className="text-2xl font-bold tracking-tight">AI Features</h1>
      {/* The tools stay mounted (hidden): a result or a running job survives a look at another tab. */}
      <Tabs.Root value={tab} onValueChange={setTab}>
        <TabList label="AI features" tabs={TABS} />
        <Tabs.Content value="document" forceMount hidden={tab !== 'document'}>
          <DocumentAi onResult={setLast} />
        </Tabs.Content>
        <Tabs.Content value="content" forceMount hidden={tab !== 'content'}>
          <ContentGen onResult={setLast} />
        </Tabs.Content>
        <Tabs.Content value="insights" forceMount hidden={tab !== 'insights'}>
          <InsightsGen onResult={setLast} />
        </Tabs.Content>
        <Tabs.Content value="overview">
          <AiOverview last={last} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
