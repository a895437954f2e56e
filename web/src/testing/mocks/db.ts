import type { SingleCampaign } from '@/features/campaigns/api/single-campaigns';
import type { Deliverability, Enrollment, ReplyRule, Sequence, SequenceStep } from '@/features/sequences/api/types';
import type { BulkCampaign } from '@/features/campaigns/api/types';
import type { CatalogProduct, Invoice } from '@/features/invoicing/api/types';
import type { Note, Task, TimelineItem } from '@/features/records/api/types';
import type { ManagedUser } from '@/features/users/api/types';
import type { SavedView } from '@/features/views/api/views';
import type { VoiceAgent, VoiceCall } from '@/features/voice/api/types';
import type { WebhookDelivery, WebhookEndpoint } from '@/features/webhooks/api/types';
import type {
  Activity,
  AuditEntry,
  JobAttempt,
  Company,
  Contact,
  Deal,
  Job,
  JobStatus,
  Meeting,
  QueueStats,
  User,
  WorkerInfo,
} from '@/types/api';

/**
 * In-memory state behind the MSW handlers: the admin account, whether a session
 * is open, and the jobs. `resetDb()` runs after every test.
 */

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'correct horse battery staple';
/** An account that exists but is not an authorised admin (403). */
export const NON_ADMIN_EMAIL = 'sales@example.com';
export const NON_ADMIN_PASSWORD = 'sales-password';

export const adminUser: User = {
  id: '0b6f1d0e-4f86-4b53-9d1e-3f5a1b2c3d4e',
  email: ADMIN_EMAIL,
  firstName: 'Ada',
  lastName: 'Admin',
  isAdmin: true,
  adminSession: true,
};

/** The account NON_ADMIN_EMAIL signs in to at /login (an ordinary session). */
export const ordinaryUser: User = {
  id: '7c1e2d3f-0000-4000-8000-000000000001',
  email: NON_ADMIN_EMAIL,
  firstName: 'Sam',
  lastName: 'Sales',
  isAdmin: false,
  adminSession: false,
};

type Db = {
  signedIn: boolean;
  /** The open session is an ordinary user's (`ordinaryUser`), not the admin's. */
  userSession: boolean;
  /** The accounts behind GET /api/admin/users. */
  users: ManagedUser[];
  jobs: Job[];
  pausedKinds: string[];
  workers: WorkerInfo[];
  /** Finished attempts per job id. */
  attempts: Record<string, JobAttempt[]>;
  audit: AuditEntry[];
  nextJobNumber: number;
  companies: Company[];
  contacts: Contact[];
  deals: Deal[];
  meetings: Meeting[];
  /** The server-held Google grant of the signed-in user. */
  calendar: { configured: boolean; connected: boolean; accountEmail: string | null };
  activities: Activity[];
  bulkCampaigns: BulkCampaign[];
  singleCampaigns: SingleCampaign[];
  sequences: Sequence[];
  steps: SequenceStep[];
  replyRules: ReplyRule[];
  /** Enrollments by sequence id. */
  enrollments: (Enrollment & { sequenceId: string })[];
  /** Bodies of POST /api/email-sequences/{id}/enrollments. */
  enrollRequests: Record<string, unknown>[];
  deliverability: Deliverability;
  /** Bodies of POST /api/discovery/scan. */
  scans: Record<string, unknown>[];
  invoices: Invoice[];
  /** Saved views of the signed-in user. */
  views: SavedView[];
  catalog: CatalogProduct[];
  /** Bodies of POST /api/create-payment-intent. */
  payments: Record<string, unknown>[];
  /** Invoice ids POSTed to /api/invoices/{id}/send. */
  invoiceSends: string[];
  /** Whether a voice API is configured (else calls are simulated). */
  voiceConnected: boolean;
  voiceAgents: VoiceAgent[];
  voiceCalls: VoiceCall[];
  /** Bodies of the voice-call and schedule-followup POSTs, in order. */
  voiceRequests: Record<string, unknown>[];
  /** Every AI POST: its path and JSON body, or the multipart field names. */
  aiRequests: { path: string; body?: unknown; fields?: string[] }[];
  /** When true, AI POSTs answer 202 with a running job instead of the result. */
  aiQueue: boolean;
  /** When true, AI answers come from "the model" (fallback false). */
  aiModel: boolean;
  nextId: number;
  /** Notes and tasks of the record pages (records-handlers). */
  notes: Note[];
  tasks: Task[];
  /** Extra timeline items per record, keyed `type:id` (records-handlers adds notes and tasks). */
  timeline: Record<string, TimelineItem[]>;
  /** The admin's webhook endpoints and their deliveries (webhooks-handlers). */
  webhooks: WebhookEndpoint[];
  webhookDeliveries: (WebhookDelivery & { endpointId: string })[];
};

const initial = (): Db => ({
  signedIn: false,
  userSession: false,
  users: [],
  jobs: [],
  pausedKinds: [],
  workers: [],
  attempts: {},
  audit: [],
  nextJobNumber: 1,
  companies: [],
  contacts: [],
  deals: [],
  meetings: [],
  calendar: { configured: true, connected: false, accountEmail: null },
  activities: [],
  bulkCampaigns: [],
  singleCampaigns: [],
  sequences: [],
  steps: [],
  replyRules: [],
  enrollments: [],
  enrollRequests: [],
  deliverability: {
    warmupEnabled: false,
    dailyLimit: 100,
    hourlyLimit: 20,
    trackOpens: false,
    effectiveDailyLimit: 100,
    emailsSentToday: 12,
    emailsSentThisHour: 3,
  },
  scans: [],
  invoices: [],
  views: [],
  catalog: [],
  payments: [],
  invoiceSends: [],
  voiceConnected: false,
  voiceAgents: [],
  voiceCalls: [],
  voiceRequests: [],
  aiRequests: [],
  aiQueue: false,
  aiModel: false,
  nextId: 1,
  notes: [],
  tasks: [],
  timeline: {},
  webhooks: [],
  webhookDeliveries: [],
});

export const db: Db = initial();

export function resetDb(): void {
  Object.assign(db, initial());
}

const BASE_TIME = Date.parse('2026-01-15T10:00:00Z');

export function newJobId(): string {
  const n = db.nextJobNumber++;
  return `01JTEST${String(n).padStart(19, '0')}`;
}

export function makeJob(overrides: Partial<Job> = {}): Job {
  const id = overrides.id ?? newJobId();
  const createdAt = new Date(BASE_TIME + db.nextJobNumber * 1000).toISOString();
  return {
    id,
    kind: 'noop',
    status: 'queued',
    attempts: 0,
    maxAttempts: 3,
    progress: null,
    result: null,
    error: null,
    createdAt,
    runAt: createdAt,
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

export function seedJobs(count: number, overrides: Partial<Job> = {}): Job[] {
  const jobs = Array.from({ length: count }, () => makeJob(overrides));
  db.jobs.push(...jobs);
  return jobs;
}

export function queueStats(): QueueStats[] {
  const byKind = new Map<string, QueueStats>();
  for (const job of db.jobs) {
    let stats = byKind.get(job.kind);
    if (!stats) {
      stats = {
        kind: job.kind,
        paused: db.pausedKinds.includes(job.kind),
        queued: 0,
        scheduled: 0,
        running: 0,
        retrying: 0,
        succeeded: 0,
        failed: 0,
        cancelled: 0,
        oldestQueuedAgeSeconds: null,
        throughputPerMinute: 0,
        p50RunMs: null,
        p95RunMs: null,
      };
      byKind.set(job.kind, stats);
    }
    const status: JobStatus = job.status;
    stats[status] += 1;
  }
  return [...byKind.values()];
}

export const newId = (prefix: string): string => `${prefix}-${db.nextId++}`;

const NOW = '2026-01-15T10:00:00Z';

export function makeCompany(overrides: Partial<Company> = {}): Company {
  const company: Company = {
    id: newId('co'),
    name: 'Acme Bath LLC',
    industry: 'bath-shower',
    status: 'discovered',
    revenue: '5200000',
    employees: 40,
    founded: 2001,
    score: 70,
    website: null,
    phone: null,
    address: null,
    city: 'Dallas',
    state: 'TX',
    zipCode: null,
    location: 'Dallas, TX',
    growthRate: null,
    description: null,
    competitorAlignment: null,
    discoveredAt: NOW,
    discoverySource: null,
    prospectScore: 0,
    isDeal: false,
    contactCount: 0,
    hasEnhancedData: false,
    sources: [],
    createdAt: NOW,
    ...overrides,
  };
  db.companies.push(company);
  return company;
}

export function makeContact(overrides: Partial<Contact> = {}): Contact {
  const contact: Contact = {
    id: newId('ct'),
    companyId: null,
    firstName: 'Ann',
    lastName: 'Lee',
    title: null,
    department: null,
    email: `contact${db.nextId}@example.com`,
    phone: null,
    linkedinUrl: null,
    status: 'discovered',
    score: 50,
    source: null,
    tags: [],
    notes: null,
    createdAt: NOW,
    lastContactedAt: null,
    isVerified: false,
    verificationScore: null,
    verifiedBy: [],
    verifiedAt: null,
    verificationWarnings: [],
    demo: false,
    ...overrides,
  };
  db.contacts.push(contact);
  return contact;
}

export function makeDeal(overrides: Partial<Deal> = {}): Deal {
  const deal: Deal = {
    id: newId('deal'),
    title: 'Acme Bath expansion',
    description: null,
    value: '50000',
    stage: 'qualification',
    probability: 25,
    expectedCloseDate: null,
    actualCloseDate: null,
    contactId: null,
    companyId: null,
    notes: null,
    createdAt: NOW,
    ...overrides,
  };
  db.deals.push(deal);
  return deal;
}

export function makeMeeting(overrides: Partial<Meeting> = {}): Meeting {
  const meeting: Meeting = {
    id: newId('mt'),
    title: 'Discovery call',
    description: null,
    companyId: null,
    contactId: null,
    scheduledDate: '2026-02-01T15:00:00Z',
    duration: 60,
    location: null,
    meetingType: 'discovery',
    agenda: null,
    attendees: null,
    status: 'scheduled',
    syncStatus: 'pending',
    googleCalendarEventId: null,
    googleMeetLink: null,
    lastSyncedAt: null,
    googleCalendarSyncEnabled: true,
    syncError: null,
    createdAt: NOW,
    ...overrides,
  };
  db.meetings.push(meeting);
  return meeting;
}
