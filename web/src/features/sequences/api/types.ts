export const SEQUENCE_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export type SequenceStatus = (typeof SEQUENCE_STATUSES)[number];
export const TRIGGER_TYPES = ['manual', 'contact_created', 'deal_stage_changed', 'form_submitted', 'tag_added'] as const;
export const STEP_TYPES = ['email', 'delay', 'condition', 'action', 'ab_test'] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** The bulk campaigns' targeting, as a sequence's `enrollmentRules` and the enroll call's `targetFilters`. */
export type TargetFilters = {
  scoreMin?: number;
  scoreMax?: number;
  statuses?: string[];
  states?: string[];
};

/** When messages may go out: weekdays (`mon`…`sun`) and local hours, in the recipient's zone when known. */
export type SendingWindow = { days: string[]; start: string; end: string; timezone: string };

/** Why a sequence is not sending now (`GET /api/email-sequences/{id}` only). */
export type Waiting = { reason: string; label: string; until: string | null };

export type Sequence = {
  id: string;
  name: string;
  description: string;
  status: SequenceStatus;
  triggerType: string;
  abTestingEnabled: boolean;
  maxDailyEnrollments: number;
  totalEnrollments: number;
  activeEnrollments: number;
  completedEnrollments: number;
  completionRate: number;
  createdAt: string;
  updatedAt?: string;
  enrollmentRules?: TargetFilters;
  sendingWindow?: SendingWindow | null;
  waiting?: Waiting | null;
};

export type SequenceStep = {
  id: string;
  sequenceId: string;
  name: string;
  type: StepType;
  stepOrder: number;
  config: Record<string, unknown>;
  delayMinutes: number;
  totalSent: number;
  totalOpened: number;
  totalClicked: number;
  totalReplied: number;
  totalBounced: number;
};

export const RULE_TRIGGERS = ['any_reply', 'positive_reply', 'negative_reply', 'out_of_office', 'unsubscribe_request', 'keyword'] as const;
export const RULE_ACTIONS = ['stop_sequence', 'mark_responded', 'create_task', 'notify'] as const;

export type ReplyRule = {
  id: string;
  name: string;
  triggerType: string;
  keywords: string[];
  action: string;
  timesTriggered: number;
  isActive: boolean;
};

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
] as const;

export const ENROLLMENT_STATUSES = ['active', 'completed', 'exited'] as const;

export type Enrollment = {
  id: string;
  contactId: string;
  contactName: string;
  email: string | null;
  status: string;
  currentStep: number;
  currentStepName: string | null;
  nextActionAt: string | null;
  variant: string | null;
  exitReason: string | null;
  enrolledAt: string;
  completedAt: string | null;
};

/** The enroll call's answer; `skipped` counts who was left out, by reason, when the server tells. */
export type EnrollResult = {
  enrolled: number;
  remainingToday: number;
  maxDailyEnrollments: number;
  skipped?: Record<string, number>;
};

export type Deliverability = {
  warmupEnabled: boolean;
  dailyLimit: number;
  hourlyLimit: number;
  /** The 1-pixel open image goes in outreach emails (off by default: it costs deliverability). */
  trackOpens: boolean;
  effectiveDailyLimit: number;
  emailsSentToday: number;
  emailsSentThisHour: number;
};

export const SEQUENCES_URL = '/api/email-sequences';
export const sequenceUrl = (id: string) => `${SEQUENCES_URL}/${encodeURIComponent(id)}`;
