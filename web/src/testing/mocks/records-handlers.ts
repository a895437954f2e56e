import { http, HttpResponse } from 'msw';

import type { RecordType } from '@/config/paths';
import type { Note, Task, TimelineItem } from '@/features/records/api/types';
import type { Contact } from '@/types/api';

import { authed } from './authed';
import { ADMIN_EMAIL, db, newId } from './db';

/**
 * Stand-ins for docs/records.md: one record's timeline and related records, notes, tasks and the
 * workspace search. Tests add timeline items with `addTimelineItem`.
 */

const NOW = '2026-01-15T10:00:00Z';
const COLLECTIONS: Record<string, RecordType> = { companies: 'company', contacts: 'contact', deals: 'deal' };
const NOT_FOUND: Record<RecordType, string> = { company: 'Company not found', contact: 'Contact not found', deal: 'Deal not found' };

const fullName = (c: Contact) => `${c.firstName} ${c.lastName}`.trim();

function recordName(type: RecordType, id: string): string | null {
  if (type === 'company') return db.companies.find((c) => c.id === id)?.name ?? null;
  if (type === 'contact') {
    const c = db.contacts.find((x) => x.id === id);
    return c ? fullName(c) : null;
  }
  return db.deals.find((d) => d.id === id)?.title ?? null;
}

const notFound = (type: RecordType) => HttpResponse.json({ message: NOT_FOUND[type] }, { status: 404 });
const fieldError = (status: number, message: string, field: string) =>
  HttpResponse.json({ message, errors: { [field]: message } }, { status });

let itemNumber = 0;

/** Adds an item to a record's timeline (newest first by `at`). */
export function addTimelineItem(type: RecordType, id: string, item: Partial<TimelineItem> = {}): TimelineItem {
  itemNumber += 1;
  const full: TimelineItem = {
    id: `tl-${itemNumber}`,
    kind: 'updated',
    at: NOW,
    title: 'Updated',
    detail: null,
    link: null,
    actor: null,
    about: null,
    ...item,
  };
  (db.timeline[`${type}:${id}`] ??= []).push(full);
  return full;
}

/** A record's items: those added by tests plus its notes and tasks, newest first. */
function timelineOf(type: RecordType, id: string): TimelineItem[] {
  const own = db.timeline[`${type}:${id}`] ?? [];
  const notes = db.notes
    .filter((n) => n.entityType === type && n.entityId === id)
    .map((n): TimelineItem => ({ id: `note:${n.id}`, kind: 'note', at: n.createdAt, title: 'Note', detail: n.body, link: null, actor: n.author, about: null }));
  const tasks = db.tasks
    .filter((t) => t.entityType === type && t.entityId === id)
    .flatMap((t): TimelineItem[] => [
      { id: `task-${t.id}`, kind: 'task_created', at: t.createdAt, title: `Task: ${t.title}`, detail: null, link: null, actor: t.assignee, about: null },
      ...(t.done && t.doneAt
        ? [{ id: `done-${t.id}`, kind: 'task_done', at: t.doneAt, title: `Done: ${t.title}`, detail: null, link: null, actor: t.assignee, about: null }]
        : []),
    ]);
  return [...own, ...notes, ...tasks].sort((a, b) => b.at.localeCompare(a.at));
}

const openTasks = (type: RecordType, id: string) => db.tasks.filter((t) => t.entityType === type && t.entityId === id && !t.done).length;

const meetingsOf = (match: (m: (typeof db.meetings)[number]) => boolean) =>
  db.meetings.filter(match).map((m) => ({ id: m.id, title: m.title, scheduledAt: m.scheduledDate, status: m.status }));

const dealsOf = (match: (d: (typeof db.deals)[number]) => boolean) =>
  db.deals.filter(match).map((d) => ({ id: d.id, title: d.title, value: d.value, stage: d.stage }));

function related(type: RecordType, id: string) {
  if (type === 'company') {
    const contacts = db.contacts.filter((c) => c.companyId === id);
    return {
      contacts: contacts.slice(0, 50).map((c) => ({ id: c.id, name: fullName(c), title: c.title, email: c.email, status: c.status, score: c.score })),
      contactCount: contacts.length,
      deals: dealsOf((d) => d.companyId === id),
      meetings: meetingsOf((m) => m.companyId === id),
      openTasks: openTasks(type, id),
    };
  }
  if (type === 'contact') {
    const contact = db.contacts.find((c) => c.id === id);
    const company = db.companies.find((c) => c.id === contact?.companyId);
    return {
      company: company ? { id: company.id, name: company.name } : null,
      deals: dealsOf((d) => d.contactId === id),
      meetings: meetingsOf((m) => m.contactId === id),
      enrollments: db.enrollments
        .filter((e) => e.contactId === id)
        .map((e) => ({ id: e.id, sequenceId: e.sequenceId, sequenceName: db.sequences.find((s) => s.id === e.sequenceId)?.name ?? '', status: e.status, currentStep: e.currentStep })),
      openTasks: openTasks(type, id),
    };
  }
  const deal = db.deals.find((d) => d.id === id);
  const company = db.companies.find((c) => c.id === deal?.companyId);
  const contact = db.contacts.find((c) => c.id === deal?.contactId);
  return {
    company: company ? { id: company.id, name: company.name } : null,
    contact: contact ? { id: contact.id, name: fullName(contact), email: contact.email } : null,
    meetings: meetingsOf((m) => m.contactId !== null && m.contactId === deal?.contactId),
    openTasks: openTasks(type, id),
  };
}

const recordHandlers = Object.entries(COLLECTIONS).flatMap(([collection, type]) => [
  http.get(
    `/api/${collection}/:id/timeline`,
    authed(({ params, request }) => {
      const id = String(params.id);
      if (recordName(type, id) === null) return notFound(type);
      const url = new URL(request.url);
      const limit = Number(url.searchParams.get('limit') ?? '50');
      const before = url.searchParams.get('before');
      const from = before === null ? 0 : Number(before.replace(/^c/, ''));
      if (!Number.isInteger(from) || from < 0) return HttpResponse.json({ message: 'Malformed cursor' }, { status: 400 });
      const show = url.searchParams.get('show') ?? 'all';
      const kinds: Record<string, (k: string) => boolean> = {
        all: () => true,
        emails: (k) => k.startsWith('email_') || k.startsWith('sequence_'),
        calls: (k) => k === 'call' || k === 'sms',
        meetings: (k) => k === 'meeting',
        notes: (k) => k === 'note',
        tasks: (k) => k === 'task_created' || k === 'task_done',
      };
      const keep = kinds[show];
      if (!keep) return HttpResponse.json({ message: 'show must be one of: all, emails, calls, meetings, notes, tasks' }, { status: 400 });
      const all = timelineOf(type, id).filter((i) => keep(i.kind));
      const items = all.slice(from, from + limit);
      return HttpResponse.json({ items, nextCursor: from + limit < all.length ? `c${from + limit}` : null });
    }),
  ),
  http.get(
    `/api/${collection}/:id/related`,
    authed(({ params }) => {
      const id = String(params.id);
      if (recordName(type, id) === null) return notFound(type);
      return HttpResponse.json(related(type, id));
    }),
  ),
]);

const isRecordType = (v: unknown): v is RecordType => v === 'company' || v === 'contact' || v === 'deal';

export const recordsHandlers = [
  ...recordHandlers,

  // The list handlers have no single read for these two.
  http.get(
    '/api/contacts/:id',
    authed(({ params }) => {
      const contact = db.contacts.find((c) => c.id === params.id);
      if (!contact) return notFound('contact');
      const company = db.companies.find((c) => c.id === contact.companyId);
      return HttpResponse.json({
        ...contact,
        companyName: company?.name ?? contact.companyName ?? null,
        companyCity: company?.city ?? null,
        companyState: company?.state ?? null,
      });
    }),
  ),
  http.get(
    '/api/deals/:id',
    authed(({ params }) => {
      const deal = db.deals.find((d) => d.id === params.id);
      return deal ? HttpResponse.json(deal) : notFound('deal');
    }),
  ),

  // ---- notes ----
  http.get(
    '/api/notes',
    authed(({ request }) => {
      const url = new URL(request.url);
      const rows = db.notes.filter((n) => n.entityType === url.searchParams.get('entityType') && n.entityId === url.searchParams.get('entityId'));
      return HttpResponse.json(rows.slice().reverse());
    }),
  ),
  http.post(
    '/api/notes',
    authed(async ({ request }) => {
      const body = (await request.json()) as Partial<Note>;
      if (typeof body.body !== 'string' || body.body.trim() === '') return fieldError(400, 'Write the note first', 'body');
      if (body.body.length > 10_000) return fieldError(400, 'A note is limited to 10,000 characters', 'body');
      if (!isRecordType(body.entityType) || typeof body.entityId !== 'string' || recordName(body.entityType, body.entityId) === null) {
        return HttpResponse.json({ message: 'Record not found' }, { status: 404 });
      }
      const note: Note = {
        id: newId('note'),
        entityType: body.entityType,
        entityId: body.entityId,
        body: body.body,
        author: ADMIN_EMAIL,
        createdAt: new Date(Date.parse(NOW) + db.notes.length * 60_000 + 3_600_000).toISOString(),
      };
      db.notes.push(note);
      return HttpResponse.json(note, { status: 201 });
    }),
  ),
  http.delete(
    '/api/notes/:id',
    authed(({ params }) => {
      const before = db.notes.length;
      db.notes = db.notes.filter((n) => n.id !== params.id);
      return db.notes.length < before ? new HttpResponse(null, { status: 204 }) : HttpResponse.json({ message: 'Note not found' }, { status: 404 });
    }),
  ),

  // ---- tasks ----
  http.get(
    '/api/tasks',
    authed(({ request }) => {
      const url = new URL(request.url);
      const type = url.searchParams.get('entityType');
      const id = url.searchParams.get('entityId');
      const status = url.searchParams.get('status') ?? 'open';
      const rows = db.tasks
        .filter((t) => (!type || t.entityType === type) && (!id || t.entityId === id))
        .filter((t) => status === 'all' || (status === 'done' ? t.done : !t.done));
      const open = rows.filter((t) => !t.done).sort((a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999'));
      const done = rows.filter((t) => t.done).sort((a, b) => (b.doneAt ?? '').localeCompare(a.doneAt ?? ''));
      return HttpResponse.json([...open, ...done]);
    }),
  ),
  http.post(
    '/api/tasks',
    authed(async ({ request }) => {
      const body = (await request.json()) as Partial<Task>;
      if (typeof body.title !== 'string' || body.title.trim() === '') return fieldError(400, 'Give the task a title', 'title');
      if (!isRecordType(body.entityType) || typeof body.entityId !== 'string') return HttpResponse.json({ message: 'Record not found' }, { status: 404 });
      const name = recordName(body.entityType, body.entityId);
      if (name === null) return HttpResponse.json({ message: 'Record not found' }, { status: 404 });
      const task: Task = {
        id: newId('task'),
        entityType: body.entityType,
        entityId: body.entityId,
        entityName: name,
        title: body.title.trim(),
        dueDate: body.dueDate ?? null,
        done: false,
        doneAt: null,
        assignee: ADMIN_EMAIL,
        createdAt: new Date(Date.parse(NOW) + (db.tasks.length + 1) * 120_000).toISOString(),
      };
      db.tasks.push(task);
      return HttpResponse.json(task, { status: 201 });
    }),
  ),
  http.patch(
    '/api/tasks/:id',
    authed(async ({ params, request }) => {
      const task = db.tasks.find((t) => t.id === params.id);
      if (!task) return HttpResponse.json({ message: 'Task not found' }, { status: 404 });
      const body = (await request.json()) as Partial<Task>;
      if (typeof body.done === 'boolean') {
        task.done = body.done;
        task.doneAt = body.done ? new Date(Date.parse(NOW) + 7_200_000).toISOString() : null;
      }
      if (typeof body.title === 'string') task.title = body.title;
      if (body.dueDate !== undefined) task.dueDate = body.dueDate;
      return HttpResponse.json(task);
    }),
  ),
  http.delete(
    '/api/tasks/:id',
    authed(({ params }) => {
      const before = db.tasks.length;
      db.tasks = db.tasks.filter((t) => t.id !== params.id);
      return db.tasks.length < before ? new HttpResponse(null, { status: 204 }) : HttpResponse.json({ message: 'Task not found' }, { status: 404 });
    }),
  ),

  // ---- search ----
  http.get(
    '/api/search',
    authed(({ request }) => {
      const url = new URL(request.url);
      const q = (url.searchParams.get('q') ?? '').trim();
      if (q.length < 2) return HttpResponse.json({ message: 'Search needs at least 2 characters' }, { status: 400 });
      if (q.length > 100) return HttpResponse.json({ message: 'Search is limited to 100 characters' }, { status: 400 });
      const limit = Number(url.searchParams.get('limit') ?? '5');
      const needle = q.toLowerCase();
      const has = (...texts: (string | null | undefined)[]) => texts.some((t) => t?.toLowerCase().includes(needle));
      const group = <T,>(type: string, label: string, rows: T[], toResult: (row: T) => { id: string; title: string; subtitle: string | null; href: string }) => ({
        type,
        label,
        total: rows.length,
        results: rows.slice(0, limit).map((r) => ({ type, ...toResult(r) })),
      });
      const groups = [
        group('company', 'Companies', db.companies.filter((c) => has(c.name)), (c) => ({ id: c.id, title: c.name, subtitle: c.location ?? null, href: `/companies/${c.id}` })),
        group('contact', 'Contacts', db.contacts.filter((c) => has(fullName(c), c.email)), (c) => ({ id: c.id, title: fullName(c), subtitle: c.email ?? null, href: `/contacts/${c.id}` })),
        group('deal', 'Deals', db.deals.filter((d) => has(d.title)), (d) => ({ id: d.id, title: d.title, subtitle: null, href: `/deals/${d.id}` })),
        group('campaign', 'Campaigns', db.bulkCampaigns.filter((c) => has(c.name)), (c) => ({ id: c.id, title: c.name, subtitle: null, href: `/email-campaigns?campaign=${c.id}` })),
        group('sequence', 'Sequences', db.sequences.filter((s) => has(s.name)), (s) => ({ id: s.id, title: s.name, subtitle: null, href: `/email-sequences?sequence=${s.id}` })),
      ].filter((g) => g.total > 0);
      return HttpResponse.json({ query: q, groups });
    }),
  ),
];
