import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';

import { useVoiceAgents } from '../api/get-voice-agents';
import type { VoiceAgent } from '../api/types';
import { AgentFormDialog } from './agent-form-dialog';

function AgentItem({ agent, onEdit }: { agent: VoiceAgent; onEdit: () => void }) {
  const active = agent.status === 'active';
  return (
    <li aria-label={agent.name} className="rounded-lg p-3 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="font-medium break-words">{agent.name}</span>
          <span className={`rounded-full px-2 text-xs font-semibold ${active ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}>
            {active ? 'Active' : 'Inactive'}
          </span>
        </div>
        <Button size="sm" variant="secondary" onClick={onEdit} aria-label={`Edit ${agent.name}`}>
          Edit
        </Button>
      </div>
      {agent.description ? <p className="mt-1 text-sm text-slate-600">{agent.description}</p> : null}
      {agent.capabilities.length > 0 ? (
        <ul aria-label={`Capabilities of ${agent.name}`} className="mt-2 flex flex-wrap gap-1">
          {agent.capabilities.map((c) => (
            <li key={c} className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-800">
              {c}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The agents, with their capabilities: add one, edit one. */
export function AgentsCard() {
  const agents = useVoiceAgents();
  const [editing, setEditing] = useState<VoiceAgent | 'new' | null>(null);
  return (
    <>
      <Card
        title="Agents"
        actions={
          <Button variant="secondary" onClick={() => setEditing('new')}>
            Add Agent
          </Button>
        }
      >
        {agents.isPending ? (
          <Skeleton rows={2} label="Loading agents" />
        ) : agents.isError ? (
          <ErrorState title="Could not load the agents" error={agents.error} onRetry={() => void agents.refetch()} />
        ) : agents.data.length === 0 ? (
          <EmptyState title="No agents yet">Add an agent to place calls.</EmptyState>
        ) : (
          <ul aria-label="Agents" className="space-y-2">
            {agents.data.map((a) => (
              <AgentItem key={a.id} agent={a} onEdit={() => setEditing(a)} />
            ))}
          </ul>
        )}
      </Card>
      {editing ? <AgentFormDialog agent={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
