export const SEQUENCE_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export type SequenceStatus = (typeof SEQUENCE_STATUSES)[number];
export const TRIGGER_TYPES = ['manual', 'contact_created', 'deal_stage_changed', 'form_submitted', 'tag_added'] as const;
export const STEP_TYPES = ['email', 'delay', 'condition', 'action', 'ab_test'] as const;
export type StepType = (typeof STEP_TYPES)[number];

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

export type ReplyRule = {
  id: string;
  name: string;
  triggerType: string;
  timesTriggered: number;
  isActive: boolean;
};

export type Deliverability = {
  warmupEnabled: boolean;
  dailyLimit: number;
  hourlyLimit: number;
  effectiveDailyLimit: number;
  emailsSentToday: number;
  emailsSentThisHour: number;
};

export const SEQUENCES_URL = '/api/email-sequences';
export const sequenceUrl = (id: string) => `${SEQUENCES_URL}/${encodeURIComponent(id)}`;
