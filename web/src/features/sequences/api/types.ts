import type { ContactStatus } from '@/types/api';
import type {
  EmailSequence,
  NewRuleBody,
  paths,
  SequenceStep as GenSequenceStep,
  SequenceWaiting,
  TargetFilters as GenTargetFilters,
} from '@/types/openapi.gen';

export type SequenceStatus = EmailSequence['status'];
export const SEQUENCE_STATUSES = ['draft', 'active', 'paused', 'archived'] as const satisfies readonly SequenceStatus[];
export const TRIGGER_TYPES = ['manual', 'contact_created', 'deal_stage_changed', 'form_submitted', 'tag_added'] as const;
export type StepType = GenSequenceStep['type'];
export const STEP_TYPES = ['email', 'delay', 'condition', 'action', 'ab_test'] as const satisfies readonly StepType[];

/** The bulk campaigns' targeting, as a sequence's `enrollmentRules` and the enroll call's `targetFilters`. */
export type TargetFilters = GenTargetFilters;

/**
 * When messages may go out: weekdays (`mon`…`sun`) and local hours, in the recipient's zone when known.
 * Hand-written: the server's schema says only "object" for `sendingWindow` (issue 24 §2).
 */
export type SendingWindow = { days: string[]; start: string; end: string; timezone: string };

/** Why a sequence is not sending now (`GET /api/email-sequences/{id}` only). */
export type Waiting = SequenceWaiting;

/** `GET /api/email-sequences/{id}`; the list's items are the same without `waiting`. */
type SequenceView = paths['/api/email-sequences/{id}']['get']['responses'][200]['content']['application/json'];

// `enrollmentRules` and `sendingWindow` have these shapes; its schema says only "object".
export type Sequence = Omit<SequenceView, 'enrollmentRules' | 'sendingWindow'> & {
  enrollmentRules: TargetFilters;
  sendingWindow?: SendingWindow | null;
};

type StepView = paths['/api/email-sequences/{id}/steps']['get']['responses'][200]['content']['application/json'][number];

// `config` is the step runner's object (its keys depend on `type`); its schema says only "object".
export type SequenceStep = Omit<StepView, 'config'> & { config: Record<string, unknown> };

/** What a reply must be for a reply rule to act, and what it then does. */
export type RuleTrigger = NonNullable<NewRuleBody['triggerType']>;
export type RuleAction = NonNullable<NewRuleBody['action']>;
export const RULE_TRIGGERS = [
  'any_reply',
  'positive_reply',
  'negative_reply',
  'out_of_office',
  'unsubscribe_request',
  'keyword',
] as const satisfies readonly RuleTrigger[];
export const RULE_ACTIONS = ['stop_sequence', 'mark_responded', 'create_task', 'notify'] as const satisfies readonly RuleAction[];

export type ReplyRule = paths['/api/reply-rules']['get']['responses'][200]['content']['application/json'][number];

/** The contact statuses a sequence may target (jobs/src/domain/contacts.rs, without customer and lost). */
export const CONTACT_STATUSES = [
  'discovered',
  'verified',
  'contacted',
  'qualified',
  'new_lead',
  'email_sent',
  'meeting_scheduled',
  'responded',
  'hot',
  'warm',
  'cold',
] as const satisfies readonly ContactStatus[];

export const ENROLLMENT_STATUSES = ['active', 'completed', 'exited'] as const;

export type Enrollment = paths['/api/email-sequences/{id}/enrollments']['get']['responses'][200]['content']['application/json'][number];

/** The enroll call's answer; `skipped` counts who was left out, by reason. */
export type EnrollResult =
  paths['/api/email-sequences/{id}/enrollments']['post']['responses'][200]['content']['application/json'];

/** The sending limits; `trackOpens`: the 1-pixel open image goes in outreach emails (off by default: it costs deliverability). */
export type Deliverability = paths['/api/deliverability-settings']['get']['responses'][200]['content']['application/json'];

export const SEQUENCES_URL = '/api/email-sequences';
export const sequenceUrl = (id: string) => `${SEQUENCES_URL}/${encodeURIComponent(id)}`;
