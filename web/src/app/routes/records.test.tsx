import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { formatFullDateTime } from '@/lib/format';
import { chooseOption } from '@/testing/select';
import { db, makeCompany, makeContact, makeDeal, makeMeeting } from '@/testing/mocks/db';
import { addTimelineItem } from '@/testing/mocks/records-handlers';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

/** Records the JSON bodies sent with `method` to `path`, letting the default handler answer. */
function bodiesOf(method: 'put' | 'post' | 'patch', path: string) {
  const bodies: unknown[] = [];
  server.use(
    http[method](path, async ({ request }) => {
      bodies.push(await request.clone().json());
      return undefined;
    }),
  );
  return bodies;
}

const details = () => screen.getByRole('region', { name: 'Details' });
const timeline = () => screen.findByRole('list', { name: 'Timeline' });

describe('company record', () => {
  it('shows the fields, the related contacts and deals as links, and the timeline with who it was about', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC', industry: 'bath-shower', phone: '214-555-0100', city: 'Dallas', state: 'TX', status: 'prospect' });
    const pat = makeContact({ companyId: company.id, firstName: 'Pat', lastName: 'Owner', title: 'President', status: 'qualified' });
    const deal = makeDeal({ companyId: company.id, title: 'Showroom remodel', value: '48000', stage: 'proposal' });
    makeMeeting({ companyId: company.id, title: 'Site visit' });
    addTimelineItem('company', company.id, { kind: 'email_opened', at: '2026-01-15T09:00:00Z', title: 'Opened "Spring offer"', about: { type: 'contact', id: pat.id, name: 'Pat Owner' } });
    addTimelineItem('company', company.id, { kind: 'meeting', at: '2026-01-20T09:00:00Z', title: 'Meeting scheduled: “Site visit”', link: '/meetings', scheduledFor: '2026-02-03T15:30:00Z' });
    addTimelineItem('company', company.id, { kind: 'discovered', at: '2026-01-10T09:00:00Z', title: 'Found by a discovery scan', detail: 'Dallas, TX scan', actor: 'admin@example.com' });

    renderApp(`/admin/companies/${company.id}`, { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bath LLC' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Companies' })).toHaveAttribute('href', '/admin/companies');
    const fields = details();
    expect(within(fields).getByText('PROSPECT')).toBeInTheDocument();
    expect(within(fields).getByText('214-555-0100')).toBeInTheDocument();
    expect(within(fields).getByText('Dallas')).toBeInTheDocument();
    expect(within(fields).getByRole('button', { name: 'Edit Website' })).toBeInTheDocument();

    const related = await screen.findByRole('region', { name: 'Related' });
    const contacts = await within(related).findByRole('region', { name: 'Contacts' });
    expect(contacts).toHaveTextContent('Contacts (1)');
    expect(within(contacts).getByRole('link', { name: 'Pat Owner' })).toHaveAttribute('href', `/admin/contacts/${pat.id}`);
    expect(within(related).getByRole('link', { name: 'Showroom remodel' })).toHaveAttribute('href', `/admin/deals/${deal.id}`);
    expect(within(related).getByText('$48,000 · Proposal')).toBeInTheDocument();
    expect(within(related).getByText('Site visit')).toBeInTheDocument();

    const items = within(await timeline()).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('data-kind'))).toEqual(['meeting', 'email_opened', 'discovered']);
    const [meeting, opened, found] = items as [HTMLElement, HTMLElement, HTMLElement];
    // The meeting's time in the reader's zone and words, not the server's UTC text.
    const set = within(meeting).getByText((_, el) => el?.tagName === 'TIME' && el.getAttribute('dateTime') === '2026-02-03T15:30:00Z');
    expect(set).toHaveTextContent(formatFullDateTime('2026-02-03T15:30:00Z'));
    expect(meeting).not.toHaveTextContent('UTC');
    expect(within(opened).getByRole('link', { name: 'Pat Owner' })).toHaveAttribute('href', `/admin/contacts/${pat.id}`);
    expect(opened.querySelector('svg')).not.toBeNull();
    const when = found.querySelector('time');
    expect(when).toHaveAttribute('dateTime', '2026-01-10T09:00:00Z');
    expect(when?.getAttribute('title')).toMatch(/2026/);
    expect(found).toHaveTextContent('Dallas, TX scan');
    expect(found).toHaveTextContent('admin@example.com');
  });

  it('says a company from the demo catalog is demo data, in its header and in where it was found', async () => {
    const company = makeCompany({ name: 'Invented Baths', industry: 'Bath', city: 'Austin', state: 'TX', location: 'Austin, TX', sources: ['catalog'] });
    renderApp(`/companies/${company.id}`, { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Invented Baths' })).toBeInTheDocument();
    expect(screen.getByText('Bath · Austin, TX')).toHaveTextContent('Demo data');
    const found = await screen.findByRole('region', { name: 'Found by' });
    expect(found).toHaveTextContent('Demo data');
    expect(found).toHaveTextContent('not a verified record');
    expect(found).toHaveTextContent('websites and phones are not real');
  });

  it('edits the status in place: PUT sends only that field, a toast confirms, the timeline is read again', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC', status: 'discovered' });
    const bodies = bodiesOf('put', '/api/companies/:id');
    const requests = recordRequests();
    const { user } = renderApp(`/companies/${company.id}`, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit Status' }));
    const form = screen.getByRole('form', { name: 'Edit Status' });
    await chooseOption(user, within(form).getByLabelText('Status'), /^qualified$/i);
    const timelineReads = () => requests.filter((r) => r.path.endsWith('/timeline')).length;
    const before = timelineReads();
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Company Updated')).toBeInTheDocument();
    expect(bodies).toEqual([{ status: 'qualified' }]);
    expect(company.status).toBe('qualified');
    expect(screen.queryByRole('form', { name: 'Edit Status' })).not.toBeInTheDocument();
    expect(await within(details()).findByText('QUALIFIED')).toBeInTheDocument();
    await waitFor(() => expect(timelineReads()).toBeGreaterThan(before));
  });

  it('clears a field with null, and keeps the field open with the server’s message when refused', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC', phone: '214-555-0100', state: 'TX' });
    const bodies = bodiesOf('put', '/api/companies/:id');
    const { user } = renderApp(`/companies/${company.id}`, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit Phone' }));
    await user.clear(screen.getByLabelText('Phone'));
    await user.keyboard('{Enter}');
    await screen.findByText('Company Updated');
    expect(bodies).toEqual([{ phone: null }]);

    server.use(
      http.put('/api/companies/:id', () =>
        HttpResponse.json(
          { message: 'state must be a US state: its two-letter code (e.g. TX) or its name', errors: { state: 'state must be a US state: its two-letter code (e.g. TX) or its name' } },
          { status: 422 },
        ),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Edit State' }));
    const state = screen.getByLabelText('State');
    await user.clear(state);
    await user.type(state, 'Narnia{Enter}');
    const toast = (await screen.findByText('Update Failed')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('state must be a US state');
    expect(state).toHaveAccessibleDescription('state must be a US state: its two-letter code (e.g. TX) or its name');
    expect(state).toHaveValue('Narnia');
    // Escape puts the value back.
    await user.keyboard('{Escape}');
    expect(within(details()).getByText('TX')).toBeInTheDocument();
  });

  it('shows an empty timeline and a not-found page for an unknown id', async () => {
    const company = makeCompany({ name: 'Quiet Co' });
    const view = renderApp(`/companies/${company.id}`, { signedIn: true });
    expect(await screen.findByText('Nothing has happened yet')).toBeInTheDocument();
    view.unmount();

    renderApp('/admin/companies/nope', { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Company not found' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Companies' })).toHaveAttribute('href', '/admin/companies');
  });

  it('shows an error with Retry when the record cannot be read', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC' });
    server.use(http.get('/api/companies/:id', () => HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }), { once: true }));
    const { user } = renderApp(`/companies/${company.id}`, { signedIn: true });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Unable to load this company');
    expect(alert).toHaveTextContent('Database unavailable');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bath LLC' })).toBeInTheDocument();
  });

  it('loads older timeline items with Load more', async () => {
    const company = makeCompany({ name: 'Busy Co' });
    for (let i = 0; i < 30; i += 1) {
      addTimelineItem('company', company.id, { kind: 'email_sent', at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), title: `Email ${i}` });
    }
    const requests = recordRequests();
    const { user } = renderApp(`/companies/${company.id}`, { signedIn: true });
    const list = await timeline();
    expect(within(list).getAllByRole('listitem')).toHaveLength(25);
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Email 29');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(30));
    expect(within(list).getAllByRole('listitem')[29]).toHaveTextContent('Email 0');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.path.endsWith('/timeline')).map((r) => r.search)).toEqual(['?limit=25', '?limit=25&before=c25']);
  });
});

describe('timeline filters', () => {
  it('narrows the timeline to one kind of item, and shows notes in full from the notes list', async () => {
    const contact = makeContact({ firstName: 'Ann', lastName: 'Lee' });
    addTimelineItem('contact', contact.id, { kind: 'email_sent', at: '2026-01-12T09:00:00Z', title: 'Email sent: “Spring offer”' });
    addTimelineItem('contact', contact.id, { kind: 'call', at: '2026-01-13T09:00:00Z', title: 'Call completed (4 min)' });
    addTimelineItem('contact', contact.id, { kind: 'status_changed', at: '2026-01-14T09:00:00Z', title: 'Status changed to Qualified' });
    const long = `Visited the showroom. ${'Wants the walk-in tub with the wider door. '.repeat(14)}Call back in March.`;
    db.notes.push({ id: 'n1', entityType: 'contact', entityId: contact.id, body: long, author: 'Dana Rep', createdAt: '2026-01-15T09:00:00Z' });
    const requests = recordRequests();
    const { user } = renderApp(`/contacts/${contact.id}`, { signedIn: true });
    const kindsShown = async () => within(await timeline()).getAllByRole('listitem').map((i) => i.getAttribute('data-kind'));
    await waitFor(async () => expect(await kindsShown()).toEqual(['note', 'status_changed', 'call', 'email_sent']));

    const tabs = screen.getByRole('tablist', { name: 'Show in the timeline' });
    await user.click(within(tabs).getByRole('tab', { name: 'Emails' }));
    await waitFor(async () => expect(await kindsShown()).toEqual(['email_sent']));
    expect(requests.some((r) => r.path.endsWith('/timeline') && r.search.includes('show=emails'))).toBe(true);
    await user.click(within(tabs).getByRole('tab', { name: 'Calls & texts' }));
    await waitFor(async () => expect(await kindsShown()).toEqual(['call']));
    await user.click(within(tabs).getByRole('tab', { name: 'Meetings' }));
    expect(await screen.findByText('No meetings yet')).toBeInTheDocument();

    // Notes come whole from the notes list, with who wrote them.
    await user.click(within(tabs).getByRole('tab', { name: 'Notes' }));
    const notes = await screen.findByRole('list', { name: 'Notes' });
    expect(within(notes).getByText(long)).toBeInTheDocument();
    expect(notes).toHaveTextContent('Dana Rep');
    expect(requests.some((r) => r.path === '/api/notes' && r.search.includes(`entityId=${contact.id}`))).toBe(true);
  });
});

describe('notes and tasks', () => {
  it('adds a note that then shows in the timeline, and shows the server’s field error', async () => {
    const contact = makeContact({ firstName: 'Ann', lastName: 'Lee' });
    const bodies = bodiesOf('post', '/api/notes');
    const { user } = renderApp(`/contacts/${contact.id}`, { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Add note' });
    await user.type(within(form).getByLabelText('Note'), 'Wants a quote for two walk-in tubs');
    await user.click(within(form).getByRole('button', { name: 'Add note' }));
    const note = await within(await timeline()).findByText('Wants a quote for two walk-in tubs');
    expect(note.closest('li')).toHaveAttribute('data-kind', 'note');
    expect(bodies).toEqual([{ entityType: 'contact', entityId: contact.id, body: 'Wants a quote for two walk-in tubs' }]);
    expect(within(form).getByLabelText('Note')).toHaveValue('');

    // Deleted after confirming, it leaves the timeline.
    await user.click(within(note.closest('li') as HTMLElement).getByRole('button', { name: 'Delete note' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this note?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Note Deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Wants a quote for two walk-in tubs')).toBeNull());
    expect(db.notes).toEqual([]);

    server.use(
      http.post('/api/notes', () =>
        HttpResponse.json({ message: 'A note is limited to 10,000 characters', errors: { body: 'A note is limited to 10,000 characters' } }, { status: 400 }),
      ),
    );
    await user.type(within(form).getByLabelText('Note'), 'x');
    await user.click(within(form).getByRole('button', { name: 'Add note' }));
    expect(await within(form).findByText('A note is limited to 10,000 characters')).toBeInTheDocument();
    expect(within(form).getByLabelText('Note')).toHaveAttribute('aria-invalid', 'true');
  });

  it('adds a task with a due date, ticks it done, and keeps done tasks folded away', async () => {
    const deal = makeDeal({ title: 'Showroom remodel' });
    const posts = bodiesOf('post', '/api/tasks');
    const patches = bodiesOf('patch', '/api/tasks/:id');
    const { user } = renderApp(`/deals/${deal.id}`, { signedIn: true });
    const panel = await screen.findByRole('region', { name: 'Tasks' });
    expect(await within(panel).findByText('No open tasks.')).toBeInTheDocument();

    const form = within(panel).getByRole('form', { name: 'Add task' });
    await user.type(within(form).getByLabelText('Task'), 'Send the revised quote');
    await user.type(within(form).getByLabelText('Due date (optional)'), '2026-02-03');
    await user.click(within(form).getByRole('button', { name: 'Add task' }));
    const open = await within(panel).findByRole('list', { name: 'Open tasks' });
    expect(within(open).getByText('Send the revised quote')).toBeInTheDocument();
    expect(posts).toEqual([{ entityType: 'deal', entityId: deal.id, title: 'Send the revised quote', dueDate: '2026-02-03' }]);
    expect(within(await timeline()).getByText('Task: Send the revised quote')).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Task'), 'Call back');
    await user.click(within(form).getByRole('button', { name: 'Add task' }));
    await within(open).findByText('Call back');
    expect(posts[1]).toEqual({ entityType: 'deal', entityId: deal.id, title: 'Call back' });

    await user.click(within(open).getByRole('checkbox', { name: 'Complete Send the revised quote' }));
    expect(await screen.findByText('Task Completed')).toBeInTheDocument();
    expect(patches).toEqual([{ done: true }]);
    await waitFor(() => expect(within(open).queryByText('Send the revised quote')).not.toBeInTheDocument());

    const toggle = within(panel).getByRole('button', { name: 'Done tasks' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(panel).queryByRole('list', { name: 'Done tasks' })).not.toBeInTheDocument();
    await user.click(toggle);
    const done = await within(panel).findByRole('list', { name: 'Done tasks' });
    expect(within(done).getByRole('checkbox', { name: 'Reopen Send the revised quote' })).toBeChecked();
    expect(db.tasks.find((t) => t.title === 'Send the revised quote')?.done).toBe(true);

    // A task no longer wanted is deleted from its row.
    await user.click(within(open).getByRole('button', { name: 'Delete Call back' }));
    expect(await screen.findByText('Task Deleted')).toBeInTheDocument();
    await waitFor(() => expect(within(panel).queryByText('Call back')).not.toBeInTheDocument());
    expect(db.tasks.map((t) => t.title)).toEqual(['Send the revised quote']);
  });

  it("shows the task's field error from the server", async () => {
    const company = makeCompany({ name: 'Acme Bath LLC' });
    server.use(
      http.post('/api/tasks', () =>
        HttpResponse.json({ message: 'dueDate must be a date (YYYY-MM-DD)', errors: { dueDate: 'dueDate must be a date (YYYY-MM-DD)' } }, { status: 400 }),
      ),
    );
    const { user } = renderApp(`/companies/${company.id}`, { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Add task' });
    await user.type(within(form).getByLabelText('Task'), 'Follow up');
    await user.click(within(form).getByRole('button', { name: 'Add task' }));
    expect(await within(form).findByText('dueDate must be a date (YYYY-MM-DD)')).toBeInTheDocument();
    expect(within(form).getByLabelText('Due date (optional)')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('contact record', () => {
  it('shows the company link and edits title and phone with partial PUTs', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC' });
    const contact = makeContact({ firstName: 'Ann', lastName: 'Lee', title: 'Buyer', companyId: company.id, phone: '555-0100', status: 'new_lead' });
    const deal = makeDeal({ contactId: contact.id, title: 'Two tubs' });
    const bodies = bodiesOf('put', '/api/contacts/:id');
    const { user } = renderApp(`/contacts/${contact.id}`, { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann Lee' })).toBeInTheDocument();
    const header = screen.getByTestId('page-header');
    expect(within(header).getByRole('link', { name: 'Acme Bath LLC' })).toHaveAttribute('href', `/companies/${company.id}`);
    expect(within(header).getByRole('link', { name: 'Send email' })).toHaveAttribute('href', `mailto:${contact.email ?? ''}`);
    const related = await screen.findByRole('region', { name: 'Related' });
    expect(await within(related).findByRole('link', { name: 'Two tubs' })).toHaveAttribute('href', `/deals/${deal.id}`);

    await user.click(screen.getByRole('button', { name: 'Edit Title' }));
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Head of Purchasing{Enter}');
    await screen.findByText('Contact Updated');
    expect(await within(details()).findByText('Head of Purchasing')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Phone' }));
    await user.clear(screen.getByLabelText('Phone'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies).toEqual([{ title: 'Head of Purchasing' }, { phone: null }]);
    expect(contact.phone).toBeNull();
  });

  it('shows "Contact not found" for a 404', async () => {
    renderApp('/contacts/missing', { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact not found' })).toBeInTheDocument();
  });
});

describe('deal record', () => {
  it('edits stage, value, probability and close date, each as its own PUT', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC' });
    const contact = makeContact({ firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' });
    const deal = makeDeal({ title: 'Showroom remodel', value: '50000', stage: 'qualification', probability: 25, companyId: company.id, contactId: contact.id });
    const bodies = bodiesOf('put', '/api/deals/:id');
    const { user } = renderApp(`/admin/deals/${deal.id}`, { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Showroom remodel' })).toBeInTheDocument();
    const related = await screen.findByRole('region', { name: 'Related' });
    expect(await within(related).findByRole('link', { name: 'Acme Bath LLC' })).toHaveAttribute('href', `/admin/companies/${company.id}`);
    expect(within(related).getByRole('link', { name: 'Ann Lee' })).toHaveAttribute('href', `/admin/contacts/${contact.id}`);
    expect(within(details()).getByText('$50,000')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Stage' }));
    await chooseOption(user, screen.getByLabelText('Stage'), 'Proposal');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Deal Updated');
    // The stage's probability follows on the server.
    expect(await within(details()).findByText('45%')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Value' }));
    await user.clear(screen.getByLabelText('Value'));
    await user.type(screen.getByLabelText('Value'), '75000{Enter}');
    expect(await within(details()).findByText('$75,000')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Probability' }));
    await user.clear(screen.getByLabelText('Probability'));
    await user.type(screen.getByLabelText('Probability'), '60{Enter}');
    expect(await within(details()).findByText('60%')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Expected close date' }));
    await user.type(screen.getByLabelText('Expected close date'), '2026-03-31{Enter}');
    await waitFor(() => expect(bodies).toHaveLength(4));
    expect(bodies).toEqual([{ stage: 'proposal' }, { value: 75000 }, { probability: 60 }, { expectedCloseDate: '2026-03-31' }]);
    expect(deal.expectedCloseDate).toBe('2026-03-31');
  });

  it('shows the value field error when the value is emptied', async () => {
    const deal = makeDeal({ title: 'Showroom remodel' });
    const { user } = renderApp(`/deals/${deal.id}`, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit Value' }));
    await user.clear(screen.getByLabelText('Value'));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByLabelText('Value')).toHaveAccessibleDescription('Deal value is required');
  });
});
