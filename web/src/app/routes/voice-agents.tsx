import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { StatusPill } from '@/components/ui/score-badge';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { useVoiceAgents } from '@/features/voice/api/get-voice-agents';
import { useVoiceCalls } from '@/features/voice/api/get-voice-calls';
import { useVoiceHealth } from '@/features/voice/api/get-voice-health';
import { voiceKeys } from '@/features/voice/api/query-keys';
import { useScheduleFollowup } from '@/features/voice/api/schedule-followup';
import { useStartVoiceCall } from '@/features/voice/api/start-voice-call';
import type { VoiceAgent } from '@/features/voice/api/types';
import { AgentFormDialog } from '@/features/voice/components/agent-form-dialog';
import { CallDetail, SimulatedTag } from '@/features/voice/components/call-detail';
import { CallForm } from '@/features/voice/components/call-form';
import { serverMessageOr } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/stores/toasts';

export const CALL_FAILED = 'Unable to initiate voice call. Please try again.';
export const DEMO_NOTE = 'No voice API is configured: calls are simulated and nobody is dialled.';

function HealthBadge() {
  const health = useVoiceHealth();
  if (health.isPending) return <span className="text-sm text-slate-500">Checking the voice platform…</span>;
  if (health.isError) return <span className="rounded-full bg-rose-100 px-2.5 py-0.5 text-xs font-semibold text-rose-800">Status unavailable</span>;
  const connected = health.data.status === 'connected';
  return (
    <span
      className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${connected ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900'}`}
    >
      {connected ? 'Connected' : 'Demo mode'}
    </span>
  );
}

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

/** Voice Agents (seed 002 §2): platform status, the agents, calls with their outcome, follow-ups and recent calls. */
export function VoiceAgentsRoute() {
  const health = useVoiceHealth();
  const agents = useVoiceAgents();
  const calls = useVoiceCalls();
  const [editing, setEditing] = useState<VoiceAgent | 'new' | null>(null);
  // The call shown, and the job placing it while that runs.
  const [current, setCurrent] = useState<{ callId: string; jobId: string | null } | null>(null);

  const start = useStartVoiceCall({
    onSuccess: (r) => {
      setCurrent({ callId: r.callId, jobId: r.jobId });
      toast({
        title: 'Call Started',
        description: r.simulated ? 'Demo mode: the call is simulated, nobody is dialled.' : 'The agent is placing the call.',
        variant: 'success',
      });
    },
    onError: (e) => toast({ title: 'Call Failed', description: serverMessageOr(e, CALL_FAILED), variant: 'destructive' }),
  });
  const followup = useScheduleFollowup({
    onSuccess: (r) => {
      setCurrent({ callId: r.callId, jobId: null });
      toast({ title: 'Follow-up Scheduled', description: `The call is placed at ${formatDateTime(r.scheduledFor)}.`, variant: 'success' });
    },
    onError: (e) => toast({ title: 'Scheduling Failed', description: serverMessageOr(e, 'Failed to schedule the follow-up'), variant: 'destructive' }),
  });

  const placed = () => setCurrent((c) => (c ? { ...c, jobId: null } : c));
  useJobOutcome(current?.jobId, {
    onDone: (job) => {
      placed();
      if (job.status !== 'succeeded') {
        toast({ title: 'Call Failed', description: job.error ?? CALL_FAILED, variant: 'destructive' });
      }
    },
    onError: placed,
    invalidate: [voiceKeys.calls()],
  });

  const active = (agents.data ?? []).filter((a) => a.status === 'active');
  const recent = calls.data ?? [];

  return (
    <div className="space-y-6">
      <title>Voice Agents · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Voice Agents</h1>
        <HealthBadge />
      </div>
      {health.data?.status === 'demo' ? (
        <p role="note" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {DEMO_NOTE}
        </p>
      ) : null}
      {health.data && health.data.features.length > 0 ? (
        <ul aria-label="Platform features" className="flex flex-wrap gap-1">
          {health.data.features.map((f) => (
            <li key={f} className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
              {f}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
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
        <Card title="Start a Call">
          <CallForm mode="call" agents={active} pending={start.isPending} onCall={(input) => start.mutate(input)} />
        </Card>
      </div>
      {current ? (
        <Card
          title="Call"
          actions={
            <Button size="sm" variant="ghost" onClick={() => setCurrent(null)} disabled={current.jobId !== null}>
              Close
            </Button>
          }
        >
          <CallDetail callId={current.callId} placing={current.jobId !== null} />
        </Card>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Schedule a Follow-up">
          <CallForm mode="followup" agents={active} pending={followup.isPending} onFollowup={(input) => followup.mutate(input)} />
        </Card>
        <Card title="Recent Calls">
          {calls.isPending ? (
            <Skeleton rows={2} label="Loading calls" />
          ) : calls.isError ? (
            <ErrorState title="Could not load the calls" error={calls.error} onRetry={() => void calls.refetch()} />
          ) : recent.length === 0 ? (
            <EmptyState title="No calls yet" />
          ) : (
            <ul aria-label="Recent calls" className="divide-y divide-slate-100">
              {recent.map((c) => (
                <li key={c.id} aria-label={`${c.contactName} ${formatDateTime(c.createdAt)}`} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <div className="min-w-0">
                    <p className="font-medium break-words">
                      {c.contactName} <span className="font-normal text-slate-500">· {c.agentName}</span>
                    </p>
                    <p className="text-xs text-slate-500">
                      {formatDateTime(c.scheduledFor ?? c.createdAt)}
                      {c.outcome ? ` · ${c.outcome.replaceAll('_', ' ')}` : ''}
                    </p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <StatusPill status={c.status} />
                    <SimulatedTag call={c} />
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={current?.jobId != null}
                      onClick={() => setCurrent({ callId: c.id, jobId: null })}
                      aria-label={`View call with ${c.contactName}`}
                    >
                      View
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      {editing ? <AgentFormDialog agent={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}
