import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { TabList } from '@/components/ui/tabs';
import { useDeliverability } from '@/features/sequences/api/deliverability';
import { useSequences } from '@/features/sequences/api/get-sequences';
import { CreateSequenceDialog } from '@/features/sequences/components/create-sequence-dialog';
import { DeliverabilityPanel } from '@/features/sequences/components/deliverability-panel';
import { ReplyRules } from '@/features/sequences/components/reply-rules';
import { SequenceBuilder } from '@/features/sequences/components/sequence-builder';
import { SequenceList } from '@/features/sequences/components/sequence-list';
import { SequenceStats } from '@/features/sequences/components/sequence-stats';

/** Email Sequences (seed 002 §2): sequences, the builder, reply rules and deliverability. */
export function EmailSequencesRoute() {
  const sequences = useSequences();
  const deliverability = useDeliverability();
  const [tab, setTab] = useState('sequences');
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const list = sequences.data ?? [];
  const current = list.find((s) => s.id === selected) ?? null;
  const open = (id: string) => {
    setSelected(id);
    setTab('builder');
  };

  return (
    <div className="space-y-6">
      <title>Email Sequences · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Email Sequences</h1>
        <Button onClick={() => setCreating(true)}>Create Sequence</Button>
      </div>
      <SequenceStats sequences={list} />
      <Tabs.Root value={tab} onValueChange={setTab}>
        <TabList
          label="Sequence views"
          tabs={[['sequences', 'Sequences'], ['builder', 'Builder', !current], ['rules', 'Reply Rules'], ['deliverability', 'Deliverability']]}
        />
        <Tabs.Content value="sequences">
          <SequenceList sequences={sequences} onOpen={open} onDeleted={(id) => id === selected && setSelected(null)} />
        </Tabs.Content>
        <Tabs.Content value="builder">{current ? <SequenceBuilder sequence={current} /> : null}</Tabs.Content>
        <Tabs.Content value="rules">
          <ReplyRules />
        </Tabs.Content>
        <Tabs.Content value="deliverability">
          <DeliverabilityPanel deliverability={deliverability} />
        </Tabs.Content>
      </Tabs.Root>
      {creating ? (
        <CreateSequenceDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            open(id);
          }}
        />
      ) : null}
    </div>
  );
}
