import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { TabList } from '@/components/ui/tabs';
import { PageHeader } from '@/components/ui/page-header';
import { useDeliverability } from '@/features/sequences/api/deliverability';
import { useSequences } from '@/features/sequences/api/get-sequences';
import { CreateSequenceDialog } from '@/features/sequences/components/create-sequence-dialog';
import { DeliverabilityPanel } from '@/features/sequences/components/deliverability-panel';
import { ReplyRules } from '@/features/sequences/components/reply-rules';
import { SequenceDetail, type DetailSection } from '@/features/sequences/components/sequence-detail';
import { SequenceList } from '@/features/sequences/components/sequence-list';
import { SequenceStats } from '@/features/sequences/components/sequence-stats';

const SECTIONS: DetailSection[] = ['steps', 'enrollments', 'settings'];

/**
 * Email Sequences (seed 002 §2): sequences, reply rules and deliverability. The address says what is
 * open: `?view=rules|deliverability`, `?sequence=<id>` with `&section=steps|enrollments|settings`
 * and the enrollments' `&status=` and `&offset=`.
 */
export function EmailSequencesRoute() {
  const sequences = useSequences();
  const deliverability = useDeliverability();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const list = sequences.data ?? [];
  const open = params.get('sequence');
  const view = params.get('view') ?? 'sequences';
  const section = SECTIONS.find((s) => s === params.get('section')) ?? 'steps';
  const enrollments = { status: params.get('status') ?? '', offset: Math.max(0, Number(params.get('offset')) || 0) };
  /** Replaces the given address parameters; `null` drops one. */
  const go = (next: Record<string, string | null>) =>
    setParams((old) => {
      const p = new URLSearchParams(old);
      for (const [k, v] of Object.entries(next)) {
        if (v === null || v === '') p.delete(k);
        else p.set(k, v);
      }
      return p;
    });
  const openSequence = (id: string) => go({ view: null, sequence: id, section: null, status: null, offset: null });

  return (
    <div className="space-y-6">
      <title>Email Sequences · Prospector</title>
      <PageHeader
        title="Email Sequences"
        count={sequences.data ? list.length : undefined}
        action={<Button onClick={() => setCreating(true)}>Create Sequence</Button>}
      />
      <SequenceStats sequences={list} />
      <Tabs.Root value={view} onValueChange={(v) => go({ view: v === 'sequences' ? null : v })}>
        <TabList
          label="Sequence views"
          tabs={[
            ['sequences', 'Sequences'],
            ['rules', 'Reply Rules'],
            ['deliverability', 'Deliverability'],
          ]}
        />
        <Tabs.Content value="sequences">
          {open ? (
            <SequenceDetail
              id={open}
              section={section}
              enrollments={enrollments}
              onSection={(s) => go({ section: s === 'steps' ? null : s })}
              onEnrollments={({ status, offset }) => go({ status, offset: offset ? String(offset) : null })}
              onBack={() => go({ sequence: null, section: null, status: null, offset: null })}
            />
          ) : (
            <SequenceList sequences={sequences} onOpen={openSequence} />
          )}
        </Tabs.Content>
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
            openSequence(id);
          }}
        />
      ) : null}
    </div>
  );
}
