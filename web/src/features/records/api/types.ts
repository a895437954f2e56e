import type { RecordType } from '@/config/paths';

/** Shapes of the record endpoints (docs/records.md). */

export type TimelineKind =
  | 'created'
  | 'updated'
  | 'status_changed'
  | 'stage_changed'
  | 'converted'
  | 'email_sent'
  | 'email_delivered'
  | 'email_opened'
  | 'email_clicked'
  | 'email_replied'
  | 'email_bounced'
  | 'email_unsubscribed'
  | 'sms'
  | 'call'
  | 'meeting'
  | 'note'
  | 'task_created'
  | 'task_done'
  | 'sequence_enrolled'
  | 'sequence_stopped'
  | 'discovered'
  | 'imported'
  | 'job';

export type RecordRef = { type: RecordType; id: string; name: string };

export type TimelineItem = {
  id: string;
  /** One of `TimelineKind`; an unknown kind from a newer server still shows. */
  kind: TimelineKind | (string & {});
  /** RFC 3339. */
  at: string;
  title: string;
  detail: string | null;
  link: string | null;
  actor: string | null;
  /** The related record the item came through (a company's timeline holds its contacts' items). */
  about: RecordRef | null;
  /** RFC 3339; a meeting's time, shown in the reader's zone. */
  scheduledFor?: string;
};

export type TimelinePage = { items: TimelineItem[]; nextCursor: string | null };

export type RelatedContact = {
  id: string;
  name: string;
  title: string | null;
  email: string | null;
  status: string;
  score: number;
};
export type RelatedDeal = { id: string; title: string; value: string | number; stage: string | null };
export type RelatedMeeting = { id: string; title: string; scheduledAt: string; status: string };
export type RelatedEnrollment = {
  id: string;
  sequenceId: string;
  sequenceName: string;
  status: string;
  currentStep: number;
};

export type CompanyRelated = {
  contacts: RelatedContact[];
  contactCount: number;
  deals: RelatedDeal[];
  meetings: RelatedMeeting[];
  openTasks: number;
};
export type ContactRelated = {
  company: { id: string; name: string } | null;
  deals: RelatedDeal[];
  meetings: RelatedMeeting[];
  enrollments: RelatedEnrollment[];
  openTasks: number;
};
export type DealRelated = {
  company: { id: string; name: string } | null;
  contact: { id: string; name: string; email: string | null } | null;
  meetings: RelatedMeeting[];
  openTasks: number;
};

export type RelatedOf = { company: CompanyRelated; contact: ContactRelated; deal: DealRelated };

export type Note = {
  id: string;
  entityType: RecordType;
  entityId: string;
  body: string;
  author: string | null;
  createdAt: string;
};

export type Task = {
  id: string;
  entityType: RecordType;
  entityId: string;
  entityName: string | null;
  title: string;
  /** `YYYY-MM-DD`. */
  dueDate: string | null;
  done: boolean;
  doneAt: string | null;
  assignee: string | null;
  createdAt: string;
};
