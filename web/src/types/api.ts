/**
 * Shapes of the Prospector HTTP API. The server's OpenAPI document describes them: they come from
 * `openapi.gen.ts` (`npm run api-types`, issue 24 §2) by their schema's name. What is written here
 * is the app's own: the statuses it switches on, the pages it builds from X-Total-Count, and the
 * few JSON fields the document does not describe yet.
 */

import type {
  ActivityView,
  AuditEntry,
  CalendarConnection,
  CompanyBulkStatusBody,
  CompanyEnrichmentView,
  CompanyView,
  ContactBody,
  ContactView,
  CreateJob,
  DealView,
  JobAccepted,
  JobAttempt,
  JobBulkInput,
  JobProgress,
  JobView,
  JobWorker,
  MeetingView,
  OpsJobDetail,
  paths,
  QueueStatsView,
  SessionUser,
  TargetFilters,
} from './openapi.gen';

type Verb = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** A parameter's value as the app may send it: filters come from the address, so a parameter with a
 * list of values takes any text (the server answers a value outside the list with its message). */
type Sent<V> = [V] extends [string | null | undefined] ? string | null | undefined : V;

/** The query parameters an operation takes (names checked, values as [`Sent`]): `ApiQuery<'/api/contacts', 'get'>`. */
export type ApiQuery<P extends keyof paths, M extends Verb> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? { [K in keyof NonNullable<Q>]?: Sent<NonNullable<Q>[K]> }
  : never;

/** `GET /api/auth/user` (and `/api/admin/user`): the signed-in account and its session. */
export type User = SessionUser;

/** A job's status, as the server documents it (`jobs::queue::STATUSES`). */
export type JobStatus = JobView['status'];

export const JOB_STATUSES = [
  'queued',
  'scheduled',
  'running',
  'retrying',
  'succeeded',
  'failed',
  'cancelled',
] as const satisfies readonly JobStatus[];

export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];
export const CANCELLABLE_JOB_STATUSES: readonly JobStatus[] = [
  'queued',
  'scheduled',
  'running',
  'retrying',
];
export const RETRYABLE_JOB_STATUSES: readonly JobStatus[] = ['failed', 'cancelled'];
/** Jobs that wait for their turn: they can be run now. */
export const WAITING_JOB_STATUSES: readonly JobStatus[] = ['queued', 'scheduled', 'retrying'];

/** `POST /api/ops/jobs/bulk` actions. */
export type BulkJobAction = JobBulkInput['action'];

/** A job kind, as the server documents it (`jobs::kinds`). */
export type JobKind = CreateJob['kind'];

export const JOB_KINDS = [
  'ai_score',
  'ai_task',
  'bulk_ai_score',
  'bulk_campaign_send',
  'calendar_sync',
  'company_enrich',
  'contact_enrich',
  'contact_import',
  'contact_verify',
  'discovery_scan',
  'document_ai',
  'email_send',
  'invoice_pdf',
  'invoice_send',
  'mailbox_sync',
  'mailbox_tick',
  'noop',
  'prune_jobs',
  'record_merge',
  'reminder_batch',
  'reminder_send',
  'reminder_tick',
  'sender_domain_check',
  'sequence_step_send',
  'sequence_tick',
  'sequence_trigger',
  'sms_send',
  'voice_call',
  'webhook_deliver',
] as const satisfies readonly JobKind[];

/** A contact's status, as the server takes it (`jobs::domain::contacts`). */
export type ContactStatus = NonNullable<ContactBody['status']>;

/** A company's status, as the server takes it (`jobs::domain::companies`). */
export type CompanyStatus = CompanyBulkStatusBody['status'];

/** A US state as the campaigns' and sequences' targeting takes it: a two-letter code or a name. */
export type UsState = NonNullable<TargetFilters['states']>[number];

export const isTerminalStatus = (status: JobStatus | undefined): boolean =>
  status !== undefined && TERMINAL_JOB_STATUSES.includes(status);

export type { JobProgress };

/** `GET /api/jobs/{id}`: a job's status, progress and result. */
export type Job = JobView;

/** `GET /api/ops/queues`: one kind's counts, timings and whether ops paused it. */
export type QueueStats = QueueStatsView;

/** One attempt of a job, as `GET /api/ops/jobs/{id}` lists them (`outcome`: succeeded, retry, failed, cancelled, lost, …). */
export type { JobAttempt };

/** `GET /api/ops/jobs/{id}`: the job with what ops need besides its status. */
export type JobOpsDetail = OpsJobDetail;

/** `GET /api/ops/workers`. */
export type WorkerInfo = JobWorker;

/** `GET /api/ops/audit`: who did what to the queue, newest first. */
export type { AuditEntry };

/** The 202 answer of every call that starts a job (`Location` names the job). */
export type EnqueueResponse = JobAccepted;

/** A paged list: the rows and the X-Total-Count header; `exact` is false when the total is a
 * floor (the server counts a search's matches only so far, "1,000+"). */
export type Page<T> = {
  items: T[];
  total: number;
  exact: boolean;
};

/** One factor of a lead score (docs/providers.md, "Scoring"): what it looked at, its points of its weight. */
export type ScoreFactor = {
  factor: string;
  /** Missing on scores stored before the factors were named. */
  label?: string;
  value?: string;
  points: number;
  max?: number;
  reason: string;
};

/** What a company's own website showed when last read (docs/providers.md, "Website enrichment"). */
export type WebsiteFacts = {
  pages: string[];
  emails: string[];
  phones: string[];
  socials: Record<string, string>;
  people: { firstName: string; lastName: string; title: string | null; email: string | null }[];
  services: string[];
  truncated: boolean;
  skipped: { url: string; reason: string }[];
};

/** A contact with its company's name and place; `demo`: found in the demo catalog ("Demo data"). */
export type Contact = Omit<ContactView, 'scoreFactors'> & {
  // The server sends this shape; its schema says any JSON (issue 24 §2).
  scoreFactors?: ScoreFactor[] | null;
};

/** The record only (`GET /api/companies/{id}`): why this score, and what its website showed. */
export type CompanyEnrichment = Omit<CompanyEnrichmentView, 'scoreFactors' | 'websiteFacts'> & {
  // The server sends these shapes; its schema says any JSON (issue 24 §2).
  scoreFactors?: ScoreFactor[] | null;
  websiteFacts?: WebsiteFacts | null;
};

/**
 * A company; `revenue` is whole dollars as a digit string, `sources` where it was found (`osm`,
 * `google_places`, `catalog`, `llm`; `catalog` is shown as "Demo data").
 */
export type Company = Omit<CompanyView, 'competitiveAnalysis' | 'contacts' | 'enrichment'> & {
  // The server sends this shape; its schema says any JSON (issue 24 §2). `partnershipOpportunity`
  // above 80 is "High Potential".
  competitiveAnalysis?: { partnershipOpportunity?: number } | null;
  contacts?: Contact[] | null;
  enrichment?: CompanyEnrichment | null;
};

/** A deal; `value` is whole dollars as a digit string. */
export type Deal = DealView;

/** `GET /api/meetings`: a meeting and its Google Calendar sync (`syncError`: why the last one failed). */
export type Meeting = MeetingView;

/** `GET /api/calendar/connection`: the signed-in user's Google Calendar grant (held by the server). */
export type { CalendarConnection };

/** `GET /api/activities`: one entry of the activity feed. */
export type Activity = ActivityView;
