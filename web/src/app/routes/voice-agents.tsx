import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/states';
import { useVoiceAgents } from '@/features/voice/api/get-voice-agents';
import { AgentsCard } from '@/features/voice/components/agents-card';
import { CallDetail } from '@/features/voice/components/call-detail';
import { CallForm } from '@/features/voice/components/call-form';
import { RecentCalls } from '@/features/voice/components/recent-calls';
import { HealthBadge, PlatformInfo } from '@/features/voice/components/voice-platform';
import { useVoiceCall } from '@/features/voice/hooks/use-voice-call';

/** Voice Agents (seed 002 §2): platform status, the agents, calls with their outcome, follow-ups and recent calls. */
export function VoiceAgentsRoute() {
  const agents = useVoiceAgents();
  const call = useVoiceCall();
  const { current, start, followup } = call;
  const active = (agents.data ?? []).filter((a) => a.status === 'active');

  return (
    <div className="space-y-6">
      <title>Voice Agents · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Voice Agents</h1>
        <HealthBadge />
      </div>
      <PlatformInfo />
      <div className="grid gap-6 lg:grid-cols-2">
        <AgentsCard />
        <Card title="Start a Call">
          <CallForm mode="call" agents={active} pending={start.isPending} onCall={(input) => start.mutate(input)} />
        </Card>
      </div>
      {current ? (
        <Card
          title="Call"
          actions={
            <Button size="sm" variant="ghost" onClick={call.close} disabled={current.jobId !== null}>
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
        <RecentCalls viewDisabled={call.placing} onView={call.view} />
      </div>
    </div>
  );
}
