/** Shapes of the Prospector HTTP API, as the server sends them (camelCase JSON). */

export type User = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** The account has admin rights. */
  isAdmin: boolean;
  /** This session was opened at the admin login: the admin screens are open to it. */
  adminSession: boolean;
};

export const JOB_STATUSES = [
  'queued',
  'scheduled',
  'running',
  'retrying',
  'succeeded',
  'failed',
  'cancelled',
] as const;

export type JobStatus = (typeof JOB_STATUSES)[number];

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
export type BulkJobAction = 'retry' | 'cancel' | 'delete' | 'run_now';

export const isTerminalStatus = (status: JobStatus | undefined): boolean =>
  status !== undefined && TERMINAL_JOB_STATUSES.includes(status);

export type JobProgress = {
  percent: number;
  message: string | null;
};

export type Job = {
  id: string;
  kind: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  progress: JobProgress | null;
  result: unknown;
  error: string | null;
  createdAt: string;
  runAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export type QueueStats = {
  kind: string;
  /** Paused by ops: its jobs wait until resumed. */
  paused: boolean;
  queued: number;
  scheduled: number;
  running: number;
  retrying: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  oldestQueuedAgeSeconds: number | null;
  throughputPerMinute: number;
  p50RunMs: number | null;
  p95RunMs: number | null;
};

/** One attempt of a job, as `GET /api/ops/jobs/{id}` lists them. */
export type JobAttempt = {
  attempt: number;
  workerId: string | null;
  startedAt: string | null;
  finishedAt: string;
  /** succeeded, retry, failed, cancelled, lost, … */
  outcome: string;
  error: string | null;
};

/** `GET /api/ops/jobs/{id}`: the job with what ops need besides its status. */
export type JobOpsDetail = Job & {
  payload: unknown;
  idempotencyKey: string | null;
  lockedBy: string | null;
  cancelRequested: boolean;
  attemptHistory: JobAttempt[];
};

/** `GET /api/ops/workers`. */
export type WorkerInfo = {
  id: string;
  hostname: string;
  pid: number;
  kinds: string[];
  concurrency: number;
  startedAt: string;
  heartbeatAt: string;
  alive: boolean;
  runningJobs: number;
};

/** `GET /api/ops/audit`: who did what to the queue, newest first. */
export type AuditEntry = {
  id: string;
  actorEmail: string | null;
  action: string;
  target: string | null;
  detail: unknown;
  createdAt: string;
};

export type EnqueueResponse = {
  jobId: string;
  status: JobStatus;
};

/** A paged list: the rows and the X-Total-Count header; `exact` is false when the total is a
 * floor (the server counts a search's matches only so far, "1,000+"). */
export type Page<T> = {
  items: T[];
  total: number;
  exact: boolean;
};

export type Contact = {
  id: string;
  companyId: string | null;
  firstName: string;
  lastName: string;
  title: string | null;
  department: string | null;
  email: string | null;
  phone: string | null;
  linkedinUrl: string | null;
  status: string;
  score: number;
  source: string | null;
  tags: string[];
  notes: string | null;
  createdAt: string;
  lastContactedAt: string | null;
  isVerified: boolean;
  verificationScore: number | null;
  verifiedBy: string[];
  verifiedAt: string | null;
  verificationWarnings: string[];
  /** The contact's company, read with it (absent in fixtures that predate it). */
  companyName?: string | null;
  companyCity?: string | null;
  companyState?: string | null;
  /** Found by a scan of the demo catalog: invented, shown with a "Demo data" label. */
  demo?: boolean;
  /** Why this score: the scorer's factors (`null`: never scored by it). */
  scoreFactors?: ScoreFactor[] | null;
};

export type Company = {
  id: string;
  name: string;
  industry: string | null;
  status: string;
  /** Whole dollars as a digit string. */
  revenue: string | null;
  employees: number | null;
  founded: number | null;
  score: number;
  website: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  location: string | null;
  growthRate: number | null;
  description: string | null;
  competitorAlignment: number | null;
  /** The scan's estimates; `partnershipOpportunity` above 80 is "High Potential". */
  competitiveAnalysis?: { partnershipOpportunity?: number } | null;
  discoveredAt: string | null;
  discoverySource: string | null;
  prospectScore: number;
  isDeal: boolean;
  contactCount: number;
  contacts?: Contact[];
  /** The record only (`GET /api/companies/{id}`): why this score, and what its website showed. */
  enrichment?: CompanyEnrichment;
  /** Where it was found (`osm`, `google_places`, `catalog`, `llm`); `catalog` is shown as "Demo data". */
  sources?: string[];
  createdAt: string;
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

export type CompanyEnrichment = {
  scoreFactors: ScoreFactor[] | null;
  websiteFacts: WebsiteFacts | null;
  enrichedAt: string | null;
};

export type Deal = {
  id: string;
  title: string;
  description: string | null;
  /** Whole dollars as a digit string. */
  value: string;
  stage: string | null;
  probability: number;
  expectedCloseDate: string | null;
  actualCloseDate: string | null;
  contactId: string | null;
  companyId: string | null;
  notes: string | null;
  createdAt: string;
};

export type Meeting = {
  id: string;
  title: string;
  description: string | null;
  companyId: string | null;
  contactId: string | null;
  scheduledDate: string;
  duration: number;
  location: string | null;
  meetingType: string;
  agenda: string | null;
  attendees: string | null;
  status: string;
  syncStatus: string;
  googleCalendarEventId: string | null;
  googleMeetLink: string | null;
  lastSyncedAt: string | null;
  googleCalendarSyncEnabled: boolean;
  /** Why the last calendar sync failed. */
  syncError: string | null;
  createdAt: string;
};

/** `GET /api/calendar/connection`: the signed-in user's Google Calendar grant (held by the server). */
export type CalendarConnection = {
  configured: boolean;
  connected: boolean;
  accountEmail: string | null;
  connectedAt: string | null;
  error: string | null;
};

export type Activity = {
  id: string;
  type: string;
  description: string;
  entityType: string | null;
  entityId: string | null;
  timestamp: string;
};
