import type {
  ContactRef,
  DealRef,
  EnrollmentRef,
  MeetingRef,
  paths,
  RecordRef as GenRecordRef,
  TimelineItem as GenTimelineItem,
} from '@/types/openapi.gen';

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

/** The related record a timeline item came through (a company's timeline holds its contacts' items). */
export type RecordRef = GenRecordRef;

/** One timeline item; `kind` is one of `TimelineKind`, and an unknown kind from a newer server still shows. */
export type TimelineItem = GenTimelineItem;

export type TimelinePage = paths['/api/companies/{id}/timeline']['get']['responses'][200]['content']['application/json'];

export type RelatedContact = ContactRef;
export type RelatedDeal = DealRef;
export type RelatedMeeting = MeetingRef;
export type RelatedEnrollment = EnrollmentRef;

export type CompanyRelated = paths['/api/companies/{id}/related']['get']['responses'][200]['content']['application/json'];
export type ContactRelated = paths['/api/contacts/{id}/related']['get']['responses'][200]['content']['application/json'];
export type DealRelated = paths['/api/deals/{id}/related']['get']['responses'][200]['content']['application/json'];

export type RelatedOf = { company: CompanyRelated; contact: ContactRelated; deal: DealRelated };

export type Note = paths['/api/notes']['get']['responses'][200]['content']['application/json'][number];

export type Task = paths['/api/tasks']['get']['responses'][200]['content']['application/json'][number];
