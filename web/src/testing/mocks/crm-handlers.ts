import { http, HttpResponse } from 'msw';

import { COMPANY_STATUSES } from '@/features/companies/components/company-filters';
import type { EmailHistory } from '@/features/contacts/api/get-email-history';
import type { CampaignPerformance } from '@/features/dashboard/api/get-campaign-performance';
import type { CustomerReport } from '@/features/dashboard/api/get-customer-report';
import { isOneOf } from '@/lib/guards';
import type { Company, Contact, Deal } from '@/types/api';
import type {
  CustomerStatsView,
  DashboardMetrics,
  DealBoardColumn,
  DeleteOutcome,
  EmailAnalytics,
  EmailFigures,
  LeadStage,
  PipelineMetrics,
  ProspectsView,
  RegionCount,
  StatusOutcome,
} from '@/types/openapi.gen';

import { authed } from './authed';
import { db, makeContact, makeDeal, makeJob, makeMeeting } from './db';

/** Stateful stand-ins for the CRM endpoints, with the real API's rules and messages. */

const NOW_ISO = '2026-01-15T10:00:00Z';

/** Email figures before anything was sent (a contact's history, a dashboard window). */
export const NO_EMAIL_FIGURES: EmailFigures = {
  sent: 0,
  delivered: 0,
  opened: 0,
  openTracked: 0,
  clicked: 0,
  replied: 0,
  bounced: 0,
  unsubscribed: 0,
  complained: 0,
  deliveryRate: 0,
  openRate: 0,
  clickRate: 0,
  replyRate: 0,
  bounceRate: 0,
  unsubscribeRate: 0,
  complaintRate: 0,
};

/**
 * The calendar feed's version, as the server keeps it per user; keyed by `db.calendar` so each
 * test's fresh db starts at version 0 (`feed-token.ics`).
 */
const feedVersions = new WeakMap<object, number>();
const feedUrl = (version: number) =>
  `http://localhost/calendar/feed-token${version ? `-v${version}` : ''}.ics`;

const fieldError = (message: string, field: string, status = 422) =>
  HttpResponse.json({ message, errors: { [field]: message } }, { status });

function paged(request: Request, rows: unknown[]) {
  const url = new URL(request.url);
  const limit = Number(url.searchParams.get('limit') ?? '100');
  const offset = Number(url.searchParams.get('offset') ?? '0');
  return HttpResponse.json(rows.slice(offset, offset + limit), {
    headers: { 'X-Total-Count': String(rows.length) },
  });
}

/**
 * Rows in the server's list order: newest first (created_at desc, then id desc). Mock rows often
 * share a created_at, and their ids number them in creation order, so later rows come first.
 */
const newestFirst = <T extends { createdAt: string }>(rows: T[]): T[] =>
  rows
    .map((row, at) => ({ row, at }))
    .sort((a, b) => b.row.createdAt.localeCompare(a.row.createdAt) || b.at - a.at)
    .map(({ row }) => row);

/** `?limit=` of a board request: cards per column, 1..1000 (default 25). */
function boardLimit(request: Request): number | Response {
  const raw = new URL(request.url).searchParams.get('limit');
  const limit = raw === null ? 25 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return fieldError('limit must be between 1 and 1000', 'limit');
  return limit;
}

const csv = (name: string, body: string) =>
  new HttpResponse(body, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` },
  });

const REQUIRED = 'Required Fields Missing: Please fill in first name, last name, and email address.';
const PIPELINE = ['new_lead', 'email_sent', 'meeting_scheduled', 'qualified'] as const;
const PIPELINE_NAMES: readonly string[] = PIPELINE;
const STAGE_TITLES = ['New Leads', 'Email Sent', 'Meeting Scheduled', 'Qualified'];
const BOARD = ['qualification', 'proposal', 'negotiation', 'decision', 'closed_won'] as const;
const BOARD_NAMES: readonly string[] = BOARD;
const PROBABILITY: Record<string, number> = {
  qualification: 25,
  proposal: 45,
  negotiation: 65,
  decision: 80,
  closed_won: 100,
  closed_lost: 0,
};
const REGION_STATES: Record<string, string[]> = {
  southwest: ['TX', 'LA', 'AR', 'MS', 'NM', 'OK', 'AZ'],
  texas: ['TX'],
  louisiana: ['LA'],
  arkansas: ['AR'],
  mississippi: ['MS'],
  'new-mexico': ['NM'],
  oklahoma: ['OK'],
  arizona: ['AZ'],
};
const TARGET_STATES = [
  ['TX', 'Texas'],
  ['LA', 'Louisiana'],
  ['AR', 'Arkansas'],
  ['MS', 'Mississippi'],
  ['NM', 'New Mexico'],
  ['OK', 'Oklahoma'],
  ['AZ', 'Arizona'],
] as const;

const fullName = (c: Contact) => `${c.firstName} ${c.lastName}`;

type SortKeys<T> = Record<string, { dir: 'asc' | 'desc'; value: (row: T) => string | number | null }>;

/**
 * A list's `sort` and `dir` as the api reads them (docs/records.md): no `sort` keeps the rows as
 * they are; unknown values last whichever the direction; ties by id in the same direction; an
 * unknown key or direction is a 422 naming the allowed ones.
 */
function sorted<T extends { id: string }>(request: Request, rows: T[], keys: SortKeys<T>): T[] | Response {
  const params = new URL(request.url).searchParams;
  const sort = params.get('sort');
  if (sort === null) return rows;
  const key = keys[sort];
  if (!key) return fieldError(`sort must be one of: ${Object.keys(keys).join(', ')}`, 'sort');
  const dir = params.get('dir') ?? key.dir;
  if (dir !== 'asc' && dir !== 'desc') return fieldError('dir must be one of: asc, desc', 'dir');
  const sign = dir === 'asc' ? 1 : -1;
  const compare = (x: string | number, y: string | number) =>
    typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
  return [...rows].sort((a, b) => {
    const x = key.value(a);
    const y = key.value(b);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (compare(x, y) !== 0) return compare(x, y) * sign;
    return compare(a.id, b.id) * sign;
  });
}

const CONTACT_SORTS: SortKeys<Contact> = {
  created: { dir: 'desc', value: (c) => c.createdAt },
  name: { dir: 'asc', value: (c) => `${c.lastName.toLowerCase()} ${c.firstName.toLowerCase()}` },
  score: { dir: 'desc', value: (c) => c.score },
  status: { dir: 'asc', value: (c) => c.status },
  company: { dir: 'asc', value: (c) => c.companyName?.toLowerCase() ?? null },
  lastContacted: { dir: 'desc', value: (c) => c.lastContactedAt ?? null },
};

const COMPANY_SORTS: SortKeys<Company> = {
  created: { dir: 'desc', value: (c) => c.createdAt },
  name: { dir: 'asc', value: (c) => c.name.toLowerCase() },
  state: { dir: 'asc', value: (c) => (c.state ? `${c.state} ${c.city?.toLowerCase() ?? ''}` : null) },
  score: { dir: 'desc', value: (c) => c.score },
  revenue: { dir: 'desc', value: (c) => (c.revenue == null ? null : Number(c.revenue)) },
  employees: { dir: 'desc', value: (c) => c.employees ?? null },
  status: { dir: 'asc', value: (c) => c.status },
};

/** Sorted and paged, or the sort's 422. */
function sortedPage<T extends { id: string }>(request: Request, rows: T[], keys: SortKeys<T>) {
  const ordered = sorted(request, rows, keys);
  return ordered instanceof Response ? ordered : paged(request, ordered);
}

/** Who a contacts bulk action is for: picked ids (all must exist) or the list's filters. */
function selectedContacts(body: { contactIds?: string[]; contactFilter?: Record<string, string | undefined> }): Contact[] | Response {
  if (body.contactFilter) {
    const filter = Object.entries(body.contactFilter).filter((e): e is [string, string] => Boolean(e[1]));
    return contactFilter(new URLSearchParams(filter));
  }
  const ids = body.contactIds ?? [];
  if (ids.length === 0) return fieldError('Select at least one contact.', 'contactIds');
  const rows = db.contacts.filter((c) => ids.includes(c.id));
  const unknown = ids.find((id) => !rows.some((c) => c.id === id));
  return unknown ? HttpResponse.json({ message: `Contact not found: ${unknown}` }, { status: 404 }) : rows;
}

/** The picked company ids (1–1,000, all known), or the api's refusal. */
function selectedCompanies(ids: string[] | undefined): Company[] | Response {
  if (!ids || ids.length === 0) return fieldError('Select at least one company.', 'companyIds');
  const rows = db.companies.filter((c) => ids.includes(c.id));
  const unknown = ids.find((id) => !rows.some((c) => c.id === id));
  return unknown ? HttpResponse.json({ message: `Company not found: ${unknown}` }, { status: 404 }) : rows;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** "Qualified", "Not interested": a status as the api's messages write it. */
const humanize = (status: string) => {
  const words = status.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function log(type: string, description: string) {
  const at = '2026-01-15T10:00:00Z';
  db.activities.unshift({
    id: `act-${db.activities.length + 1}`,
    kind: type,
    summary: description,
    at,
    link: null,
    type,
    description,
    entityType: null,
    entityId: null,
    timestamp: at,
  });
}

function contactFilter(params: URLSearchParams) {
  const q = params.get('q')?.toLowerCase();
  const role = params.get('role')?.toLowerCase();
  const status = params.get('status');
  const region = params.get('region');
  const states = region ? REGION_STATES[region] : undefined;
  const ids = params.get('ids')?.split(',');
  return db.contacts.filter((c) => {
    if (ids && !ids.includes(c.id)) return false;
    if (q && ![fullName(c), c.email ?? '', c.title ?? ''].some((s) => s.toLowerCase().includes(q))) return false;
    if (role && !(c.title ?? '').toLowerCase().includes(role)) return false;
    if (status && c.status !== status) return false;
    if (states) {
      const company = db.companies.find((co) => co.id === c.companyId);
      if (!company?.state || !states.includes(company.state)) return false;
    }
    return true;
  });
}

type ContactBody = Partial<Record<keyof Contact, unknown>>;

function applyContact(target: Contact, body: ContactBody): Response | null {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const merged = { ...target };
  for (const key of ['firstName', 'lastName'] as const) {
    if (key in body) merged[key] = text(body[key]) ?? '';
  }
  for (const key of ['email', 'phone', 'title', 'department', 'companyId', 'notes'] as const) {
    if (key in body) merged[key] = text(body[key]);
  }
  if (typeof body.status === 'string') merged.status = body.status;
  if (!merged.firstName || !merged.lastName || !merged.email) {
    return HttpResponse.json({ message: REQUIRED }, { status: 422 });
  }
  if (db.contacts.some((c) => c.id !== target.id && c.email === merged.email)) {
    return HttpResponse.json({ message: 'A contact with this email address already exists.' }, { status: 409 });
  }
  Object.assign(target, merged);
  return null;
}

export const crmHandlers = [
  // ---- dashboard ----
  http.get(
    '/api/dashboard/metrics',
    authed(() => {
      const open = db.deals.filter((d) => d.stage !== 'closed_won' && d.stage !== 'closed_lost');
      const live = db.meetings.filter((m) => m.status !== 'cancelled');
      return HttpResponse.json({
        prospectsIdentified: db.companies.length,
        prospectsChange: 12.5,
        prospectsChangeText: '+12.5% from last month',
        meetingsScheduled: live.length,
        meetingConversionRate: 0,
        activeDeals: open.length,
        pipelineValue: open.reduce((sum, d) => sum + Number(d.value), 0),
        upcomingMeetings: live.filter((m) => m.status === 'scheduled' || m.status === 'confirmed').length,
        completedMeetings: db.meetings.filter((m) => m.status === 'completed').length,
        monthlyMeetings: live.length,
      } satisfies DashboardMetrics);
    }),
  ),
  http.get(
    '/api/dashboard/campaign-performance',
    authed(({ request }) => {
      const timeframe = new URL(request.url).searchParams.get('timeframe') ?? '7';
      if (!['7', '30', '90'].includes(timeframe)) return fieldError('timeframe must be one of: 7, 30, 90', 'timeframe');
      return HttpResponse.json({
        timeframe: Number(timeframe),
        deliveryRate: 0,
        responseRate: 0,
        meetingRate: Number(timeframe) / 10,
        emailDataAvailable: false,
        meetingsCreated: 0,
        contactsContacted: 0,
        emails: NO_EMAIL_FIGURES,
      } satisfies CampaignPerformance);
    }),
  ),
  http.get(
    '/api/dashboard/regional',
    authed(() =>
      HttpResponse.json(
        TARGET_STATES.map(([state, name]) => ({
          state,
          name,
          count: db.companies.filter((c) => c.state === state).length,
        })) satisfies RegionCount[],
      ),
    ),
  ),
  http.get(
    '/api/companies/report',
    authed(({ request }) => {
      const state = new URL(request.url).searchParams.get('state');
      const mine = db.companies.filter((c) => !state || c.state === state);
      const avg = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);
      return HttpResponse.json({
        state,
        totalCompanies: mine.length,
        avgRevenue: avg(mine.filter((c) => c.revenue).map((c) => Number(c.revenue))),
        avgEmployees: avg(mine.filter((c) => c.employees).map((c) => c.employees ?? 0)),
        qualified: mine.filter((c) => c.status === 'qualified' || c.status === 'interested').length,
        companies: mine.map((c) => ({ ...c, contacts: [] })),
      } satisfies CustomerReport);
    }),
  ),
  http.get(
    '/api/dashboard/report',
    authed(() => csv('business-development-report-2026-01-15.csv', 'Business Development Report,Generated,2026-01-15\n')),
  ),
  http.get('/api/activities', authed(({ request }) => paged(request, db.activities))),
  http.get(
    '/api/email/analytics',
    authed(() =>
      HttpResponse.json({
        timeframe: 30,
        totalSent: 40,
        openRate: 25,
        clickRate: 7.5,
        replyRate: 2.5,
        delivered: 39,
        bounced: 1,
        figures: { ...NO_EMAIL_FIGURES, sent: 40, delivered: 39, bounced: 1, openTracked: 40 },
      } satisfies EmailAnalytics),
    ),
  ),

  // ---- companies ----
  http.get(
    '/api/companies',
    authed(({ request }) => {
      const url = new URL(request.url);
      const q = url.searchParams.get('q')?.toLowerCase();
      const state = url.searchParams.get('state');
      const status = url.searchParams.get('status');
      const band = url.searchParams.get('scoreBand');
      const range = band ? { high: [80, 100], medium: [60, 79], low: [0, 59] }[band] : undefined;
      if (band && !range) return fieldError('scoreBand must be one of: high, medium, low', 'scoreBand');
      const ids = url.searchParams.get('ids')?.split(',');
      const rows = db.companies.filter(
        (c) =>
          (!ids || ids.includes(c.id)) &&
          (!q || [c.name, c.industry, c.city, c.state].some((s) => s?.toLowerCase().includes(q))) &&
          (!state || c.state === state) &&
          (!status || c.status === status) &&
          (!range || (c.score >= (range[0] ?? 0) && c.score <= (range[1] ?? 100))),
      );
      return sortedPage(request, rows, COMPANY_SORTS);
    }),
  ),
  http.get(
    '/api/companies/export',
    authed(({ request }) => {
      const params = new URL(request.url).searchParams;
      const ids = params.get('ids')?.split(',');
      const state = params.get('state');
      const status = params.get('status');
      const rows = db.companies.filter((c) => (!ids || ids.includes(c.id)) && (!state || c.state === state) && (!status || c.status === status));
      if (rows.length === 0) return HttpResponse.json({ message: 'No companies to export' }, { status: 404 });
      return csv(
        'companies-export.csv',
        ['Name,Industry,Status,Score,Revenue,Employees,City,State,Website,Phone', ...rows.map((c) => [c.name, c.industry, c.status, c.score, c.revenue, c.employees, c.city, c.state, c.website, c.phone].join(','))].join('\n'),
      );
    }),
  ),
  http.post(
    '/api/companies/bulk-status',
    authed(async ({ request }) => {
      const { companyIds, status } = (await request.json()) as { companyIds?: string[]; status: string };
      if (!isOneOf(COMPANY_STATUSES, status)) return fieldError(`status must be one of: ${COMPANY_STATUSES.join(', ')}`, 'status');
      const rows = selectedCompanies(companyIds);
      if (rows instanceof Response) return rows;
      const changed = rows.filter((c) => c.status !== status);
      for (const c of changed) c.status = status;
      const already = rows.length - changed.length;
      const message = `${plural(changed.length, 'company', 'companies')} set to ${humanize(status)}${already ? ` (${already} already ${humanize(status)})` : ''}`;
      return HttpResponse.json({ status, matched: rows.length, updated: changed.length, message } satisfies StatusOutcome);
    }),
  ),
  http.post(
    '/api/companies/bulk-delete',
    authed(async ({ request }) => {
      const { companyIds } = (await request.json()) as { companyIds?: string[] };
      const rows = selectedCompanies(companyIds);
      if (rows instanceof Response) return rows;
      db.companies = db.companies.filter((c) => !rows.includes(c));
      // Their contacts stay, without a company.
      for (const c of db.contacts) {
        if (rows.some((co) => co.id === c.companyId)) Object.assign(c, { companyId: null, companyName: null, companyCity: null, companyState: null });
      }
      return HttpResponse.json({ deleted: rows.length, message: `Deleted ${plural(rows.length, 'company', 'companies')}` } satisfies DeleteOutcome);
    }),
  ),
  http.get(
    '/api/companies/:id',
    authed(({ params }) => {
      const company = db.companies.find((c) => c.id === params.id);
      if (!company) return HttpResponse.json({ message: 'Company not found' }, { status: 404 });
      return HttpResponse.json({ ...company, contacts: db.contacts.filter((c) => c.companyId === company.id) });
    }),
  ),

  http.put(
    '/api/companies/:id',
    authed(async ({ request, params }) => {
      const company = db.companies.find((c) => c.id === params.id);
      if (!company) return HttpResponse.json({ message: 'Company not found' }, { status: 404 });
      const body = (await request.json()) as Record<string, unknown> & { revenue?: number | null };
      if ('name' in body && (typeof body.name !== 'string' || !body.name.trim())) {
        return fieldError('Company name is required', 'name');
      }
      const { revenue, ...rest } = body;
      Object.assign(company, rest);
      if ('revenue' in body) company.revenue = revenue === null ? null : String(revenue);
      return HttpResponse.json(company);
    }),
  ),

  // ---- contacts ----
  http.get(
    '/api/contacts',
    authed(({ request }) => sortedPage(request, newestFirst(contactFilter(new URL(request.url).searchParams)), CONTACT_SORTS)),
  ),
  http.get(
    '/api/contacts/export',
    authed(({ request }) => {
      const rows = contactFilter(new URL(request.url).searchParams);
      if (rows.length === 0) {
        return HttpResponse.json({ message: 'No Contacts to Export: Add contacts first or clear filters.' }, { status: 404 });
      }
      return csv(
        'contacts-export.csv',
        ['First Name,Last Name,Title,Email,Phone,Status,Score', ...rows.map((c) => [c.firstName, c.lastName, c.title, c.email, c.phone, c.status, c.score].join(','))].join('\n'),
      );
    }),
  ),
  http.post(
    '/api/contacts',
    authed(async ({ request }) => {
      const body = (await request.json()) as ContactBody;
      const contact = makeContact({ firstName: '', lastName: '', email: null });
      const problem = applyContact(contact, body);
      if (problem) {
        db.contacts.pop();
        return problem;
      }
      log('contact_created', `Contact ${fullName(contact)} added`);
      return HttpResponse.json(contact, { status: 201 });
    }),
  ),
  http.put(
    '/api/contacts/:id',
    authed(async ({ request, params }) => {
      const contact = db.contacts.find((c) => c.id === params.id);
      if (!contact) return HttpResponse.json({ message: 'Contact not found' }, { status: 404 });
      return applyContact(contact, (await request.json()) as ContactBody) ?? HttpResponse.json(contact);
    }),
  ),
  http.post(
    '/api/contacts/import',
    authed(async ({ request }) => {
      if (!request.headers.get('Content-Type')?.startsWith('text/csv')) {
        return HttpResponse.json({ message: 'Expected a CSV body with Content-Type: text/csv' }, { status: 415 });
      }
      const header = (await request.text()).split('\n')[0] ?? '';
      if (!['firstName', 'lastName', 'email'].every((c) => header.includes(c))) {
        return HttpResponse.json({ message: 'The CSV needs the columns firstName, lastName and email; missing: email' }, { status: 422 });
      }
      const job = makeJob({ kind: 'contact_import' });
      db.jobs.push(job);
      return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
    }),
  ),
  http.get(
    '/api/contacts/:id/email-history',
    authed(({ params }) =>
      db.contacts.some((c) => c.id === params.id)
        ? HttpResponse.json({ totalEvents: 0, campaigns: [], recentEvents: [], messages: [], figures: NO_EMAIL_FIGURES } satisfies EmailHistory)
        : HttpResponse.json({ message: 'Contact not found' }, { status: 404 }),
    ),
  ),
  http.post(
    '/api/contacts/:id/verify',
    authed(({ params }) => {
      if (!db.contacts.some((c) => c.id === params.id)) {
        return HttpResponse.json({ message: 'Contact not found' }, { status: 404 });
      }
      const job = makeJob({ kind: 'contact_verify' });
      db.jobs.push(job);
      return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
    }),
  ),
  http.post(
    '/api/contacts/:id/pipeline-move',
    authed(async ({ request, params }) => {
      const contact = db.contacts.find((c) => c.id === params.id);
      if (!contact) return HttpResponse.json({ message: 'Contact not found' }, { status: 404 });
      const { direction } = (await request.json()) as { direction: string };
      const at = PIPELINE_NAMES.indexOf(contact.status);
      const to = PIPELINE[direction === 'forward' ? at + 1 : at - 1];
      if (at < 0 || !to) {
        return HttpResponse.json(
          { message: direction === 'forward' ? 'No next stage available' : 'No previous stage available' },
          { status: 409 },
        );
      }
      contact.status = to;
      return HttpResponse.json(contact);
    }),
  ),
  http.post(
    '/api/contacts/bulk-status',
    authed(async ({ request }) => {
      const body = (await request.json()) as Parameters<typeof selectedContacts>[0] & { status: string };
      const rows = selectedContacts(body);
      if (rows instanceof Response) return rows;
      const { status } = body;
      const changed = rows.filter((c) => c.status !== status);
      for (const c of changed) c.status = status;
      const already = rows.length - changed.length;
      const message =
        rows.length === 0
          ? 'No contacts match these filters'
          : `${plural(changed.length, 'contact', 'contacts')} set to ${humanize(status)}${already ? ` (${already} already ${humanize(status)})` : ''}`;
      return HttpResponse.json({ status, matched: rows.length, updated: changed.length, message } satisfies StatusOutcome);
    }),
  ),
  http.post(
    '/api/contacts/bulk-delete',
    authed(async ({ request }) => {
      const rows = selectedContacts((await request.json()) as Parameters<typeof selectedContacts>[0]);
      if (rows instanceof Response) return rows;
      db.contacts = db.contacts.filter((c) => !rows.includes(c));
      const message = rows.length === 0 ? 'No contacts match these filters' : `Deleted ${plural(rows.length, 'contact', 'contacts')}`;
      return HttpResponse.json({ deleted: rows.length, message } satisfies DeleteOutcome);
    }),
  ),
  http.post(
    '/api/contacts/:id/convert-to-customer',
    authed(({ params }) => {
      const contact = db.contacts.find((c) => c.id === params.id);
      if (!contact) return HttpResponse.json({ message: 'Contact not found' }, { status: 404 });
      if (contact.status !== 'qualified') {
        return HttpResponse.json(
          { message: `Only qualified leads can be converted to customers (this contact is ${contact.status}).` },
          { status: 409 },
        );
      }
      contact.status = 'customer';
      return HttpResponse.json(contact);
    }),
  ),
  http.get(
    '/api/leads/board',
    authed(({ request }) => {
      const limit = boardLimit(request);
      if (limit instanceof Response) return limit;
      return HttpResponse.json(
        PIPELINE.map((stage, i) => {
          const inStage = newestFirst(db.contacts.filter((c) => c.status === stage));
          return {
            stage,
            title: STAGE_TITLES[i] ?? stage,
            count: inStage.length,
            avgScore: inStage.length ? Math.round(inStage.reduce((s, c) => s + c.score, 0) / inStage.length) : 0,
            highPriority: inStage.filter((c) => c.score >= 80).length,
            contacts: inStage.slice(0, limit),
          };
        }) satisfies LeadStage[],
      );
    }),
  ),
  http.get(
    '/api/customers',
    authed(({ request }) => {
      const q = new URL(request.url).searchParams.get('q')?.toLowerCase();
      return sortedPage(
        request,
        newestFirst(db.contacts.filter((c) => c.status === 'customer' && (!q || fullName(c).toLowerCase().includes(q)))),
        CONTACT_SORTS,
      );
    }),
  ),
  http.get(
    '/api/customers/stats',
    authed(() => {
      const customers = db.contacts.filter((c) => c.status === 'customer');
      return HttpResponse.json({
        total: customers.length,
        highValue: customers.filter((c) => c.score >= 85).length,
        newThisMonth: customers.length,
      } satisfies CustomerStatsView);
    }),
  ),

  // ---- deals ----
  http.get(
    '/api/deals',
    authed(({ request }) => {
      // Stage-less deals count as qualification, as on the board.
      const stage = new URL(request.url).searchParams.get('stage');
      return paged(request, newestFirst(db.deals.filter((d) => !stage || (d.stage ?? 'qualification') === stage)));
    }),
  ),
  http.get(
    '/api/deals/board',
    authed(({ request }) => {
      const limit = boardLimit(request);
      if (limit instanceof Response) return limit;
      return HttpResponse.json(
        BOARD.map((stage) => {
          const inStage = newestFirst(db.deals.filter((d) => (d.stage ?? 'qualification') === stage));
          return {
            stage,
            count: inStage.length,
            value: inStage.reduce((sum, d) => sum + Number(d.value), 0),
            deals: inStage.slice(0, limit),
          };
        }) satisfies DealBoardColumn[],
      );
    }),
  ),
  http.post(
    '/api/deals',
    authed(async ({ request }) => {
      const body = (await request.json()) as Partial<Record<keyof Deal, unknown>>;
      if (typeof body.title !== 'string' || !body.title.trim()) return fieldError('Deal title is required', 'title');
      if (body.value === undefined || body.value === null || body.value === '') return fieldError('Deal value is required', 'value');
      const stage = typeof body.stage === 'string' ? body.stage : 'qualification';
      const deal = makeDeal({
        title: body.title,
        value: typeof body.value === 'number' ? String(body.value) : (body.value as string),
        stage,
        probability: typeof body.probability === 'number' ? body.probability : (PROBABILITY[stage] ?? 25),
        expectedCloseDate: typeof body.expectedCloseDate === 'string' ? body.expectedCloseDate : null,
      });
      return HttpResponse.json(deal, { status: 201 });
    }),
  ),
  http.post(
    '/api/deals/convert-prospect',
    authed(async ({ request }) => {
      const { prospectId, type } = (await request.json()) as { prospectId: string; type: string };
      if (type === 'company') {
        const company = db.companies.find((c) => c.id === prospectId);
        if (!company) return HttpResponse.json({ message: 'Company not found' }, { status: 404 });
        if (company.isDeal) return HttpResponse.json({ message: 'Company is already a deal' }, { status: 409 });
        company.isDeal = true;
        return HttpResponse.json(makeDeal({ title: company.name, companyId: company.id }), { status: 201 });
      }
      const contact = db.contacts.find((c) => c.id === prospectId);
      if (!contact) return HttpResponse.json({ message: 'Contact not found' }, { status: 404 });
      if (db.deals.some((d) => d.contactId === contact.id)) {
        return HttpResponse.json({ message: 'Contact is already a deal' }, { status: 409 });
      }
      contact.status = 'qualified';
      return HttpResponse.json(makeDeal({ title: fullName(contact), contactId: contact.id }), { status: 201 });
    }),
  ),
  http.post(
    '/api/deals/:id/next-stage',
    authed(({ params }) => {
      const deal = db.deals.find((d) => d.id === params.id);
      if (!deal) return HttpResponse.json({ message: 'Deal not found' }, { status: 404 });
      const next = BOARD[BOARD_NAMES.indexOf(deal.stage ?? 'qualification') + 1];
      if (!next || !BOARD_NAMES.includes(deal.stage ?? 'qualification')) {
        return HttpResponse.json({ message: 'No next stage available' }, { status: 409 });
      }
      Object.assign(deal, { stage: next, probability: PROBABILITY[next] ?? 0 });
      return HttpResponse.json(deal);
    }),
  ),
  http.put(
    '/api/deals/:id',
    authed(async ({ params, request }) => {
      const deal = db.deals.find((d) => d.id === params.id);
      if (!deal) return HttpResponse.json({ message: 'Deal not found' }, { status: 404 });
      // Like the server: a partial update; only the fields present change.
      const body = (await request.json()) as Partial<Record<keyof Deal, unknown>>;
      if ('title' in body && (typeof body.title !== 'string' || !body.title.trim())) return fieldError('Deal title is required', 'title');
      if ('value' in body && (body.value === null || body.value === '')) return fieldError('Deal value is required', 'value');
      if ('probability' in body && (typeof body.probability !== 'number' || body.probability < 0 || body.probability > 100)) {
        return fieldError('Probability must be between 0 and 100', 'probability');
      }
      const stageDefaults: Record<string, number> = { qualification: 25, proposal: 45, negotiation: 65, decision: 80, closed_won: 100, closed_lost: 0 };
      if ('stage' in body && !(String(body.stage) in stageDefaults)) return fieldError('Unknown stage', 'stage');
      const changes: Partial<Deal> = {};
      if ('title' in body) changes.title = String(body.title);
      if ('value' in body) changes.value = String(body.value);
      if ('stage' in body) {
        changes.stage = String(body.stage);
        changes.probability = stageDefaults[String(body.stage)];
      }
      if ('probability' in body) changes.probability = Number(body.probability);
      if ('expectedCloseDate' in body) changes.expectedCloseDate = (body.expectedCloseDate as string | null) ?? null;
      if ('notes' in body) changes.notes = (body.notes as string | null) ?? null;
      if ('description' in body) changes.description = (body.description as string | null) ?? null;
      Object.assign(deal, changes);
      return HttpResponse.json(deal);
    }),
  ),
  http.delete(
    '/api/deals/:id',
    authed(({ params }) => {
      const at = db.deals.findIndex((d) => d.id === params.id);
      if (at < 0) return HttpResponse.json({ message: 'Deal not found' }, { status: 404 });
      db.deals.splice(at, 1);
      return new HttpResponse(null, { status: 204 });
    }),
  ),
  http.get(
    '/api/pipeline/metrics',
    authed(() => {
      const open = db.deals.filter((d) => d.stage !== 'closed_won' && d.stage !== 'closed_lost');
      const total = open.reduce((s, d) => s + Number(d.value), 0);
      return HttpResponse.json({
        totalPipeline: total,
        qoqGrowth: 0,
        activeDealsCount: open.length,
        weeklyGrowth: 0,
        closeRate: 0,
        targetCloseRate: 20,
        isAboveTarget: false,
        avgCycleDays: 0,
        targetCycle: 35,
        industryAvgCycle: 45,
        expectedCloseValue: 0,
        conversionRate: 0,
        industryAvgCloseRate: 15.2,
        avgDealSize: open.length ? Math.round(total / open.length) : 0,
        industryAvgDealSize: 52000,
        pipelineVelocity: 0,
        stageBreakdown: [],
      } satisfies PipelineMetrics);
    }),
  ),
  http.get(
    '/api/pipeline/prospects',
    authed(() =>
      HttpResponse.json({
        companies: db.companies
          .filter((c) => c.prospectScore > 0 && !c.isDeal)
          .slice(0, 8)
          .map(({ id, name, industry, city, state, revenue, score, prospectScore, status, isDeal }) => ({
            id, name, industry, city, state, revenue, score, prospectScore, status, isDeal,
          })),
        contacts: db.contacts
          .filter((c) => ['new_lead', 'contacted', 'responded'].includes(c.status))
          .slice(0, 6)
          .map((c) => ({ ...c, companyName: null })),
      } satisfies ProspectsView),
    ),
  ),
  http.get('/api/pipeline/export', authed(() => csv('pipeline_export_2026-01-15.csv', 'Title,Stage\n'))),

  // ---- meetings ----
  http.get(
    '/api/meetings',
    authed(({ request }) => {
      const status = new URL(request.url).searchParams.get('status');
      return paged(request, db.meetings.filter((m) => !status || m.status === status));
    }),
  ),
  http.post(
    '/api/meetings',
    authed(async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      if (typeof body.title !== 'string' || !body.title.trim()) return fieldError('Title is required', 'title');
      if (typeof body.scheduledDate !== 'string') return fieldError('Date and time are required', 'scheduledDate');
      const meeting = makeMeeting({
        title: body.title,
        scheduledDate: body.scheduledDate,
        duration: typeof body.duration === 'number' ? body.duration : 60,
        meetingType: typeof body.meetingType === 'string' ? body.meetingType : 'discovery',
      });
      return HttpResponse.json(meeting, { status: 201 });
    }),
  ),
  http.put(
    '/api/meetings/:id',
    authed(async ({ request, params }) => {
      const meeting = db.meetings.find((m) => m.id === params.id);
      if (!meeting) return HttpResponse.json({ message: 'Meeting not found' }, { status: 404 });
      const { status } = (await request.json()) as { status: string };
      if (status === meeting.status) return HttpResponse.json({ message: `Meeting is already ${status}` }, { status: 409 });
      meeting.status = status;
      return HttpResponse.json(meeting);
    }),
  ),
  // ---- calendar ----
  http.get(
    '/api/calendar/connection',
    authed(() =>
      HttpResponse.json({ ...db.calendar, connectedAt: db.calendar.connected ? NOW_ISO : null, error: null }),
    ),
  ),
  http.delete(
    '/api/calendar/connection',
    authed(() => {
      db.calendar = { ...db.calendar, connected: false, accountEmail: null };
      return new HttpResponse(null, { status: 204 });
    }),
  ),
  http.get(
    '/api/calendar/auth-url',
    authed(() =>
      db.calendar.configured
        ? HttpResponse.json({ authUrl: 'https://accounts.example.test/o/oauth2/v2/auth?state=s' })
        : HttpResponse.json(
            { message: 'Google Calendar is not configured on this server. Subscribe to the calendar feed instead.' },
            { status: 409 },
          ),
    ),
  ),
  http.get(
    '/api/calendar/feed-url',
    authed(() => HttpResponse.json({ url: feedUrl(feedVersions.get(db.calendar) ?? 0) })),
  ),
  http.post(
    '/api/calendar/feed-url/rotate',
    authed(() => {
      const version = (feedVersions.get(db.calendar) ?? 0) + 1;
      feedVersions.set(db.calendar, version);
      return HttpResponse.json({ url: feedUrl(version) });
    }),
  ),
  ...(['post', 'put'] as const).map((verb) =>
    http[verb](
      verb === 'post' ? '/api/meetings/:id/sync-to-calendar' : '/api/meetings/:id/update-calendar',
      authed(({ params }) => {
        const meeting = db.meetings.find((m) => m.id === params.id);
        if (!meeting) return HttpResponse.json({ message: 'Meeting not found' }, { status: 404 });
        if (!db.calendar.connected) return HttpResponse.json({ message: 'No calendar tokens available.' }, { status: 409 });
        const job = makeJob({ kind: 'calendar_sync', status: 'succeeded', result: { eventId: 'pm01' } });
        db.jobs.push(job);
        Object.assign(meeting, {
          syncStatus: 'synced',
          googleCalendarEventId: 'pm01',
          googleMeetLink: 'https://meet.google.com/abc-defg-hij',
          lastSyncedAt: NOW_ISO,
        });
        return HttpResponse.json({ jobId: job.id, syncStatus: 'pending' }, { status: 202 });
      }),
    ),
  ),
  http.delete(
    '/api/meetings/:id/remove-from-calendar',
    authed(({ params }) => {
      const meeting = db.meetings.find((m) => m.id === params.id);
      if (!meeting) return HttpResponse.json({ message: 'Meeting not found' }, { status: 404 });
      if (!meeting.googleCalendarEventId) return HttpResponse.json({ message: 'This meeting is not on a calendar.' }, { status: 409 });
      const job = makeJob({ kind: 'calendar_sync', status: 'succeeded' });
      db.jobs.push(job);
      Object.assign(meeting, { syncStatus: 'pending', googleCalendarEventId: null, googleMeetLink: null, googleCalendarSyncEnabled: false });
      return HttpResponse.json({ jobId: job.id, syncStatus: 'pending' }, { status: 202 });
    }),
  ),
  http.delete(
    '/api/meetings/:id',
    authed(({ params }) => {
      const at = db.meetings.findIndex((m) => m.id === params.id);
      if (at < 0) return HttpResponse.json({ message: 'Meeting not found' }, { status: 404 });
      db.meetings.splice(at, 1);
      return new HttpResponse(null, { status: 204 });
    }),
  ),
];

/** The public dealer form (no session), with the API's messages. */
export const leadHandlers = [
  http.post('/api/leads', async ({ request }) => {
    const body = (await request.json()) as Record<string, string | null>;
    if ((body.companyName ?? '').trim().length < 2) return fieldError('Company name is required', 'companyName');
    if ((body.contactName ?? '').trim().length < 2) return fieldError('Your name is required', 'contactName');
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(body.email ?? '')) return fieldError('Valid email is required', 'email');
    return HttpResponse.json({ message: 'Thank you! Our team will contact you within 1-2 business days.' }, { status: 201 });
  }),
];
