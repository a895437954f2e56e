/** Voice agents and calls as the api answers them (docs/voice-and-ai.md, "Voice agents"). */

export type VoiceHealth = { status: 'connected' | 'demo'; features: string[]; provider: string | null };

export const AGENT_STATUSES = ['active', 'inactive'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export type VoiceAgent = {
  id: string;
  name: string;
  status: AgentStatus;
  capabilities: string[];
  description: string | null;
  createdAt: string;
  updatedAt: string;
};

export type CallStatus = 'scheduled' | 'queued' | 'dialing' | 'in_progress' | 'completed' | 'failed' | 'no_answer';
export type CallOutcome = 'qualified' | 'not_interested' | 'callback' | 'voicemail';

/** A call ends here; before it the screen keeps reading it. */
export const FINISHED_CALL_STATUSES: readonly CallStatus[] = ['completed', 'failed', 'no_answer'];

export type VoiceCall = {
  id: string;
  contactId: string;
  contactName: string;
  agentId: string;
  agentName: string;
  purpose: string;
  status: CallStatus;
  simulated: boolean;
  outcome: CallOutcome | null;
  transcript: string | null;
  summary: string | null;
  durationSeconds: number | null;
  suggestedMeeting: { title: string; startTime: string } | null;
  error: string | null;
  jobId: string | null;
  scheduledFor: string | null;
  createdAt: string;
  updatedAt: string;
};

/** The body of a call and of a follow-up (which adds `scheduledFor`). */
export type CallInput = { contactId: string; agentId: string; purpose: string };
