import type { AgentView, CallView, paths } from '@/types/openapi.gen';

/** Voice agents and calls as the api answers them (docs/voice-and-ai.md, "Voice agents"). */

/** `status`: 'connected' (calls go to a voice API) or 'demo' (simulated). */
export type VoiceHealth = paths['/api/kojie/health']['get']['responses'][200]['content']['application/json'];

export type AgentStatus = AgentView['status'];
export const AGENT_STATUSES = ['active', 'inactive'] as const satisfies readonly AgentStatus[];

export type VoiceAgent = AgentView;

export type CallStatus = CallView['status'];
export type CallOutcome = NonNullable<CallView['outcome']>;

/** A call ends here; before it the screen keeps reading it. */
export const FINISHED_CALL_STATUSES: readonly CallStatus[] = ['completed', 'failed', 'no_answer'];

// `suggestedMeeting` has this shape; its schema says any value (the voice service's JSON).
export type VoiceCall = Omit<CallView, 'suggestedMeeting'> & {
  suggestedMeeting?: { title: string; startTime: string } | null;
};

/** The body of a call and of a follow-up (which adds `scheduledFor`). */
export type CallInput = NonNullable<paths['/api/kojie/voice-call']['post']['requestBody']>['content']['application/json'];
