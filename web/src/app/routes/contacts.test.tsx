import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { EmailHistory } from '@/features/contacts/api/get-email-history';
import { formatDate } from '@/lib/format';
import { chooseOption } from '@/testing/select';
import { seriousViolations } from '@/testing/axe';
import { captureDownloads } from '@/testing/downloads';
import { NO_EMAIL_FIGURES } from '@/testing/mocks/crm-handlers';
import { db, makeCompany, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const REQUIRED_TEXT = 'Please fill in first name, last name, and email address.';

/** The table row of the contact named `name` (its name is the row's link). */
async function findRow(name: string) {
  const row = (await screen.findByRole('link', { name })).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

async function openAddDialog() {
  const view = renderApp('/contacts', { signedIn: true });
  await view.user.click(await screen.findByRole('button', { name: 'Add Contact' }));
  const form = await screen.findByRole('form', { name: 'Add contact' });
  return { ...view, form };
}

describe('contacts', () => {
  it('lists contacts as cards with score labels and the Executive tag', async () => {
    makeContact({ firstName: 'Maria', lastName: 'Gomez', title: 'President', score: 91 });
    makeContact({ firstName: 'Tom', lastName: 'Reed', title: 'Estimator', score: 65 });
    renderApp('/admin/contacts?view=cards', { signedIn: true });
    const maria = await screen.findByRole('listitem', { name: 'Maria Gomez' });
    expect(within(maria).getByText('Excellent')).toBeInTheDocument();
    expect(within(maria).getByText('Executive')).toBeInTheDocument();
    expect(within(maria).getByText('91')).toHaveAttribute('data-band', 'green');
    const tom = screen.getByRole('listitem', { name: 'Tom Reed' });
    expect(within(tom).getByText('65')).toHaveAttribute('data-band', 'yellow');
    expect(within(tom).queryByText('Executive')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export (2)' })).toBeInTheDocument();
  });

  it('sends the filters to the API, keeps them in the address and clears them all', async () => {
    makeContact({ firstName: 'Maria', lastName: 'Gomez', title: 'CEO', status: 'qualified' });
    makeContact({ firstName: 'Tom', lastName: 'Reed', title: 'Estimator' });
    const requests = recordRequests();
    const { user, router } = renderApp('/contacts', { signedIn: true });
    await findRow('Tom Reed');

    await chooseOption(user, screen.getByLabelText('Role'), 'CEO');
    await chooseOption(user, screen.getByLabelText('Status'), 'qualified');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Tom Reed' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Maria Gomez' })).toBeInTheDocument();
    expect(requests.at(-1)?.search).toBe('?role=CEO&status=qualified&limit=50&offset=0');
    expect(router.state.location.search).toBe('?role=CEO&status=qualified');

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(await findRow('Tom Reed')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('searches once typing pauses, and Clear All empties the search box', async () => {
    makeContact({ firstName: 'Maria', lastName: 'Gomez' });
    makeContact({ firstName: 'Tom', lastName: 'Reed' });
    const requests = recordRequests();
    const { user } = renderApp('/contacts', { signedIn: true });
    await findRow('Tom Reed');
    await user.type(screen.getByLabelText('Search'), 'mar');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Tom Reed' })).not.toBeInTheDocument());
    const searches = requests.filter((r) => r.path === '/api/contacts' && r.search.includes('q='));
    expect(searches.map((r) => r.search)).toEqual(['?q=mar&limit=50&offset=0']);

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(screen.getByLabelText('Search')).toHaveValue('');
    expect(await findRow('Tom Reed')).toBeInTheDocument();
  });

  it('refuses to add a contact without the required fields, with the seed message', async () => {
    const requests = recordRequests();
    const { user, form } = await openAddDialog();
    await user.type(within(form).getByLabelText('First name'), 'Erin');
    await user.click(within(form).getByRole('button', { name: 'Add Contact' }));

    const alert = within(form).getByRole('alert');
    expect(alert).toHaveTextContent('Required Fields Missing');
    expect(alert).toHaveTextContent(REQUIRED_TEXT);
    expect(within(form).getByLabelText('Last name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(within(form).getByLabelText('First name')).not.toHaveAttribute('aria-invalid');
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('rejects an invalid email address', async () => {
    const { user, form } = await openAddDialog();
    await user.type(within(form).getByLabelText('First name'), 'Erin');
    await user.type(within(form).getByLabelText('Last name'), 'Castillo');
    await user.type(within(form).getByLabelText('Email'), 'erin@castillo');
    await user.click(within(form).getByRole('button', { name: 'Add Contact' }));
    expect(within(form).getByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(within(form).queryByText('Required Fields Missing')).not.toBeInTheDocument();
  });

  it('adds a contact with status discovered by default and shows it in the list', async () => {
    const company = makeCompany({ name: 'Castillo Remodeling' });
    let body: unknown;
    server.use(
      http.post('/api/contacts', async ({ request }) => {
        body = await request.clone().json();
      }),
    );
    const { user, form } = await openAddDialog();
    expect(within(form).getByLabelText('First name')).toHaveFocus();
    await user.type(within(form).getByLabelText('First name'), ' Erin ');
    await user.type(within(form).getByLabelText('Last name'), 'Castillo');
    await user.type(within(form).getByLabelText('Email'), 'erin@castillo.test');
    await user.type(within(form).getByLabelText('Title'), 'Owner');
    // The company is found by typing, not picked from every company loaded at once.
    const companyBox = within(form).getByRole('combobox', { name: 'Company' });
    await user.type(companyBox, 'castillo');
    await user.click(await within(form).findByRole('option', { name: /^Castillo Remodeling/ }));
    expect(companyBox).toHaveValue('Castillo Remodeling');
    await user.click(within(form).getByRole('button', { name: 'Add Contact' }));

    expect(await screen.findByText('Contact Added')).toBeInTheDocument();
    expect(body).toEqual({
      firstName: 'Erin',
      lastName: 'Castillo',
      email: 'erin@castillo.test',
      phone: null,
      title: 'Owner',
      department: null,
      companyId: company.id,
      status: 'discovered',
      notes: null,
    });
    expect(screen.queryByRole('form', { name: 'Add contact' })).not.toBeInTheDocument();
    expect(await findRow('Erin Castillo')).toHaveTextContent('Owner');
  });

  it("shows the server's reason when adding fails", async () => {
    makeContact({ email: 'taken@example.com' });
    const { user, form } = await openAddDialog();
    await user.type(within(form).getByLabelText('First name'), 'Erin');
    await user.type(within(form).getByLabelText('Last name'), 'Castillo');
    await user.type(within(form).getByLabelText('Email'), 'taken@example.com');
    await user.click(within(form).getByRole('button', { name: 'Add Contact' }));
    const toast = (await screen.findByText('Failed to Add Contact')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('A contact with this email address already exists.');
    expect(screen.getByRole('form', { name: 'Add contact' })).toBeInTheDocument();
  });

  it('edits a contact, e.g. putting it on the lead pipeline', async () => {
    const contact = makeContact({ firstName: 'Maria', lastName: 'Gomez' });
    const { user } = renderApp('/contacts', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit Maria Gomez' }));
    const form = screen.getByRole('form', { name: 'Edit contact' });
    expect(within(form).getByLabelText('Email')).toHaveValue(contact.email);
    await chooseOption(user, within(form).getByLabelText('Status'), 'new lead');
    await user.click(within(form).getByRole('button', { name: 'Save Contact' }));
    expect(await screen.findByText('Contact Updated')).toBeInTheDocument();
    expect(db.contacts[0]?.status).toBe('new_lead');
    expect(await within(await findRow('Maria Gomez')).findByText('NEW LEAD')).toBeInTheDocument();
  });

  it("tells when there is no phone number to call", async () => {
    makeContact({ firstName: 'Tom', lastName: 'Reed', phone: null, email: 'tom@example.com' });
    const { user } = renderApp('/contacts?view=cards', { signedIn: true });
    const card = await screen.findByRole('listitem', { name: 'Tom Reed' });
    expect(within(card).getByRole('button', { name: 'Email Tom Reed' })).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Call' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Phone number not available for this contact.');
  });

  it('exports the filtered contacts as CSV, or says there are none', async () => {
    makeContact({ firstName: 'Maria', lastName: 'Gomez', status: 'qualified' });
    const downloads = captureDownloads();
    const requests = recordRequests();
    const { user } = renderApp('/contacts?status=qualified', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Export (1)' }));
    expect(await screen.findByText('Export Complete')).toBeInTheDocument();
    expect(downloads).toEqual(['contacts-export.csv']);
    expect(requests.find((r) => r.path === '/api/contacts/export')?.search).toBe('?status=qualified');

    await chooseOption(user, screen.getByLabelText('Status'), 'lost');
    await user.click(await screen.findByRole('button', { name: 'Export (0)' }));
    const toast = (await screen.findByText('No Contacts to Export')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('Add contacts first or clear filters.');
  });

  it('imports a CSV through the contact_import job and follows its progress', async () => {
    const { user } = renderApp('/contacts', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Import Contacts' }));
    const form = screen.getByRole('form', { name: 'Import contacts' });
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(within(form).getByText('Choose a CSV file to import.')).toBeInTheDocument();

    const file = new File(['firstName,lastName,email\nAnn,Lee,ann@example.com\n'], 'contacts.csv', { type: 'text/csv' });
    await user.upload(within(form).getByLabelText('CSV file'), file);
    await user.click(within(form).getByRole('button', { name: 'Import' }));

    const bar = await screen.findByRole('progressbar', { name: 'Import progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    const job = db.jobs[0];
    if (!job) throw new Error('no import job');
    expect(job.kind).toBe('contact_import');

    Object.assign(job, { status: 'running', progress: { percent: 40, message: '400 rows read' } });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'), { timeout: 3000 });
    expect(screen.getByText('400 rows read')).toBeInTheDocument();

    Object.assign(job, {
      status: 'succeeded',
      progress: { percent: 100, message: '2 rows read' },
      result: { rows: 2, imported: 1, updated: 0, rejected: [{ line: 3, reason: 'Invalid email address: x' }], rejectedCount: 1 },
    });
    expect(await screen.findByText('Import Complete', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('2 rows read: 1 imported, 0 updated, 1 rejected.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Rejected rows' })).toHaveTextContent('Line 3: Invalid email address: x');
  }, 15_000); // the job is polled once a second

  it('shows an empty state when there are no contacts', async () => {
    renderApp('/contacts', { signedIn: true });
    expect(await screen.findByText('No contacts yet')).toBeInTheDocument();
  });

  it('verifies a contact through the contact_verify job and reports the result', async () => {
    const contact = makeContact({ firstName: 'Maria', lastName: 'Gomez' });
    const { user } = renderApp('/contacts?view=cards', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Verify Maria Gomez' }));
    expect(await screen.findByRole('button', { name: 'Verify Maria Gomez' })).toHaveTextContent('Verifying…');
    const job = db.jobs[0];
    if (!job) throw new Error('no verify job');
    expect(job.kind).toBe('contact_verify');

    contact.isVerified = true;
    Object.assign(job, {
      status: 'succeeded',
      result: {
        contactId: contact.id,
        verification: { isVerified: true, verifiedBy: ['email_syntax', 'mx'], confidenceScore: 85, warnings: [] },
      },
    });
    expect(await screen.findByText('Lead Verified', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('Confirmed by email_syntax, mx (85% confidence).')).toBeInTheDocument();
    expect(await within(screen.getByRole('listitem', { name: 'Maria Gomez' })).findByText('Verified')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify Maria Gomez' })).toHaveTextContent('Verify');
  });

  it("reports 'Verification Failed' with the first warning, and 'Verification Error' when the job fails", async () => {
    const contact = makeContact({ firstName: 'Tom', lastName: 'Reed' });
    const { user } = renderApp('/contacts?view=cards', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Verify Tom Reed' }));
    await waitFor(() => expect(db.jobs).toHaveLength(1));
    Object.assign(db.jobs[0] ?? {}, {
      status: 'succeeded',
      result: {
        contactId: contact.id,
        verification: { isVerified: false, verifiedBy: [], confidenceScore: 30, warnings: ['No mail server for example.com'] },
      },
    });
    const failed = (await screen.findByText('Verification Failed', {}, { timeout: 3000 })).closest('[role="alert"]');
    expect(failed).toHaveTextContent('No mail server for example.com');

    await user.click(screen.getByRole('button', { name: 'Verify Tom Reed' }));
    await waitFor(() => expect(db.jobs).toHaveLength(2));
    Object.assign(db.jobs[1] ?? {}, { status: 'failed', error: 'mail provider unreachable' });
    const error = (await screen.findByText('Verification Error', {}, { timeout: 3000 })).closest('[role="alert"]');
    expect(error).toHaveTextContent('Failed to verify Tom Reed. mail provider unreachable');
  }, 15_000); // two jobs, each polled once a second

  it('shows a contact\'s email history: campaigns and the 10 latest events', async () => {
    makeContact({ firstName: 'Maria', lastName: 'Gomez' });
    server.use(
      http.get('/api/contacts/:id/email-history', () =>
        HttpResponse.json({
          totalEvents: 12,
          campaigns: [{ id: 'c1', name: 'Spring outreach', status: 'sent', totalEvents: 12, lastEvent: { timestamp: '2026-01-10T10:00:00Z' } }],
          figures: { ...NO_EMAIL_FIGURES, sent: 3, delivered: 2, opened: 2, clicked: 1, replied: 1, bounced: 1 },
          messages: [],
          recentEvents: Array.from({ length: 12 }, (_, i) => ({
            eventType: i % 2 ? 'opened' : 'delivered',
            timestamp: `2026-01-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
          })),
        } satisfies EmailHistory),
      ),
    );
    const { user } = renderApp('/contacts?view=cards', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Email history of Maria Gomez' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Interaction History' });
    expect(await within(dialog).findByText('Spring outreach')).toBeInTheDocument();
    expect(within(within(dialog).getByRole('region', { name: 'Recent events' })).getAllByRole('listitem')).toHaveLength(10);
    // The contact's counts, as the dashboard and campaigns count them.
    expect(within(dialog).getByRole('group', { name: 'Sent' })).toHaveTextContent('3');
    expect(within(dialog).getByRole('group', { name: 'Bounced' })).toHaveTextContent('1');
  });

  it("says 'Failed to load email history.' when it cannot be read", async () => {
    makeContact({ firstName: 'Maria', lastName: 'Gomez' });
    server.use(http.get('/api/contacts/:id/email-history', () => HttpResponse.json({ message: 'db down' }, { status: 500 })));
    const { user } = renderApp('/contacts?view=cards', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Email history of Maria Gomez' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Interaction History' });
    expect(await within(dialog).findByText('Failed to load email history.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

/** The JSON bodies POSTed to `path`, in order. */
function postedTo(path: string) {
  const bodies: unknown[] = [];
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'POST' && new URL(request.url).pathname === path) void request.clone().json().then((b) => bodies.push(b));
  });
  return bodies;
}

const names = (table: HTMLElement) => within(table).getAllByRole('rowheader').map((h) => h.textContent);

describe('contacts table', () => {
  it('is the default view: each name opens the contact, the columns read at a glance, Cards stays one click away', async () => {
    const maria = makeContact({
      firstName: 'Maria',
      lastName: 'Gomez',
      title: 'President',
      score: 91,
      status: 'qualified',
      email: 'maria@gomez.test',
      phone: '+1 555 0100',
      companyName: 'Acme Spas',
      companyCity: 'Austin',
      companyState: 'TX',
      lastContactedAt: '2026-01-10T15:00:00Z',
    });
    makeContact({ firstName: 'Tom', lastName: 'Reed', score: 65 });
    const { user, router } = renderApp('/contacts', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Contacts' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent.replace(/[▲▼]/g, ''))).toEqual([
      '',
      'Name',
      'Title',
      'Company',
      'Status',
      'Score',
      'Email',
      'Phone',
      'Last contacted',
      'Created',
      'Actions',
    ]);
    // Without a sort of its own the server lists newest first, as the Created header says.
    expect(within(table).getByRole('columnheader', { name: 'Created' })).toHaveAttribute('aria-sort', 'descending');
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'none');
    const row = await findRow('Maria Gomez');
    expect(within(row).getByRole('link', { name: 'Maria Gomez' })).toHaveAttribute('href', `/contacts/${maria.id}`);
    expect(row).toHaveTextContent('Acme Spas · Austin, TX');
    expect(within(row).getByText('QUALIFIED')).toBeInTheDocument();
    expect(within(row).getByText('91')).toHaveAttribute('data-band', 'green');
    expect(within(row).getByText(formatDate('2026-01-10T15:00:00Z'))).toHaveAttribute('datetime', '2026-01-10T15:00:00Z');
    expect(within(await findRow('Tom Reed')).getByText('65')).toHaveAttribute('data-band', 'yellow');
    expect(within(screen.getByTestId('page-header')).getByTestId('page-count')).toHaveTextContent('2');

    await user.click(screen.getByRole('button', { name: 'Cards' }));
    expect(router.state.location.search).toBe('?view=cards');
    expect(await screen.findByRole('listitem', { name: 'Maria Gomez' })).toHaveTextContent('Excellent');
    expect(screen.queryByRole('table', { name: 'Contacts' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Table' }));
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('table', { name: 'Contacts' })).toBeInTheDocument();
  });

  it('sorts on the server: a header asks for its order, again for the other direction, kept in the address', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Young', score: 40 });
    makeContact({ firstName: 'Bo', lastName: 'Adams', score: 90 });
    makeContact({ firstName: 'Cy', lastName: 'Mills', score: 70 });
    const requests = recordRequests();
    const { user, router } = renderApp('/contacts', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Contacts' });
    await findRow('Ann Young');
    const list = () => requests.filter((r) => r.path === '/api/contacts').at(-1)?.search;

    await user.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(names(table)).toEqual(['Bo Adams', 'Cy Mills', 'Ann Young']));
    expect(list()).toBe('?sort=name&dir=asc&limit=50&offset=0');
    expect(router.state.location.search).toBe('?sort=name&dir=asc');
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(table).getByRole('columnheader', { name: 'Created' })).toHaveAttribute('aria-sort', 'none');

    await user.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(names(table)).toEqual(['Ann Young', 'Cy Mills', 'Bo Adams']));
    expect(list()).toBe('?sort=name&dir=desc&limit=50&offset=0');

    // Scores start with the best.
    await user.click(within(table).getByRole('button', { name: 'Score' }));
    await waitFor(() => expect(names(table)).toEqual(['Bo Adams', 'Cy Mills', 'Ann Young']));
    expect(list()).toBe('?sort=score&dir=desc&limit=50&offset=0');
    expect(within(table).getByRole('columnheader', { name: 'Score' })).toHaveAttribute('aria-sort', 'descending');
  });

  it('sets the status of the ticked contacts in one request, says how many changed and clears the selection', async () => {
    const ann = makeContact({ firstName: 'Ann', lastName: 'Lee' });
    const bo = makeContact({ firstName: 'Bo', lastName: 'Ray', status: 'qualified' });
    makeContact({ firstName: 'Cy', lastName: 'Fox' });
    const bodies = postedTo('/api/contacts/bulk-status');
    const { user } = renderApp('/contacts', { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bo Ray' }));
    const bar = screen.getByRole('toolbar', { name: 'Selection actions' });
    expect(bar).toHaveTextContent('2 contacts selected');
    expect(within(bar).getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(await seriousViolations(screen.getByRole('main'))).toEqual([]);
    await chooseOption(user, within(bar).getByLabelText('Set status'), 'qualified');
    await user.click(within(bar).getByRole('button', { name: 'Apply' }));

    const toast = (await screen.findByText('Status Updated')).closest('[role="status"]');
    expect(toast).toHaveTextContent('1 contact set to Qualified (1 already Qualified).');
    expect(bodies).toEqual([{ status: 'qualified', contactIds: [ann.id, bo.id] }]);
    expect(db.contacts.map((c) => c.status)).toEqual(['qualified', 'qualified', 'discovered']);
    expect(await within(await findRow('Ann Lee')).findByText('QUALIFIED')).toBeInTheDocument();
    expect(screen.queryByRole('toolbar', { name: 'Selection actions' })).not.toBeInTheDocument();
  });

  it('ticks a page from its header; "all matching" sends the filters, not the ids', async () => {
    for (const n of ['Ann', 'Bo', 'Cy']) makeContact({ firstName: n, lastName: 'Lee', status: 'new_lead' });
    const bodies = postedTo('/api/contacts/bulk-status');
    const { user } = renderApp('/contacts?status=new_lead', { signedIn: true });
    const page = await screen.findByRole('checkbox', { name: 'Select all contacts on this page' });
    await findRow('Ann Lee');
    await user.click(page);
    expect(screen.getByRole('toolbar', { name: 'Selection actions' })).toHaveTextContent('3 contacts selected');
    await user.click(screen.getByRole('checkbox', { name: 'Select Bo Lee' }));
    expect(page).toBePartiallyChecked();
    expect(screen.getByRole('toolbar', { name: 'Selection actions' })).toHaveTextContent('2 contacts selected');

    await user.click(screen.getByRole('button', { name: 'Select all 3 matching' }));
    expect(page).toBeChecked();
    const bar = screen.getByRole('toolbar', { name: 'Selection actions' });
    await chooseOption(user, within(bar).getByLabelText('Set status'), 'contacted');
    await user.click(within(bar).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('3 contacts set to Contacted.')).toBeInTheDocument();
    expect(bodies).toEqual([{ status: 'contacted', contactFilter: { q: '', role: '', status: 'new_lead', region: '' } }]);
    expect(await screen.findByText('No contacts match these filters')).toBeInTheDocument();
  });

  it('deletes the ticked contacts once confirmed, naming how many, and shows a refusal in the dialog', async () => {
    const ann = makeContact({ firstName: 'Ann', lastName: 'Lee' });
    const bo = makeContact({ firstName: 'Bo', lastName: 'Ray' });
    makeContact({ firstName: 'Cy', lastName: 'Fox' });
    const bodies = postedTo('/api/contacts/bulk-delete');
    const { user } = renderApp('/contacts', { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bo Ray' }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Selection actions' })).getByRole('button', { name: 'Delete' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete 2 contacts?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(bodies).toEqual([]);

    server.use(http.post('/api/contacts/bulk-delete', () => HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }), { once: true }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Selection actions' })).getByRole('button', { name: 'Delete' }));
    dialog = screen.getByRole('dialog', { name: 'Delete 2 contacts?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete 2 contacts' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Database unavailable');
    expect(db.contacts).toHaveLength(3);

    await user.click(within(dialog).getByRole('button', { name: 'Delete 2 contacts' }));
    const toast = (await screen.findByText('Contacts Deleted')).closest('[role="status"]');
    expect(toast).toHaveTextContent('Deleted 2 contacts.');
    expect(bodies.at(-1)).toEqual({ contactIds: [ann.id, bo.id] });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ann Lee' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Cy Fox' })).toBeInTheDocument();
    expect(db.contacts.map((c) => c.firstName)).toEqual(['Cy']);
  });

  it('exports the ticked contacts by id, and all matching by the filters', async () => {
    const ann = makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'qualified' });
    const bo = makeContact({ firstName: 'Bo', lastName: 'Ray', status: 'qualified' });
    const downloads = captureDownloads();
    const requests = recordRequests();
    const { user } = renderApp('/contacts?status=qualified', { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Bo Ray' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    expect(await screen.findByText('Export Complete')).toBeInTheDocument();
    expect(downloads).toEqual(['contacts-export.csv']);
    expect(requests.filter((r) => r.path === '/api/contacts/export').map((r) => decodeURIComponent(r.search))).toEqual([`?ids=${bo.id},${ann.id}`]);

    await user.click(screen.getByRole('button', { name: 'Select all 2 matching' }));
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(requests.filter((r) => r.path === '/api/contacts/export')).toHaveLength(2));
    expect(requests.filter((r) => r.path === '/api/contacts/export').at(-1)?.search).toBe('?status=qualified');
  });

  it('saves the filters, hidden columns, order and view as a named view, and brings them back', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'qualified', score: 60 });
    makeContact({ firstName: 'Bo', lastName: 'Ray', status: 'qualified', score: 95 });
    makeContact({ firstName: 'Cy', lastName: 'Fox', status: 'discovered' });
    const { user, router } = renderApp('/contacts?status=qualified', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Contacts' });
    await user.click(within(table).getByRole('button', { name: 'Score' }));
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: /Email/ }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(names(table)).toEqual(['Bo Ray', 'Ann Lee']));

    await user.click(screen.getByRole('button', { name: 'Views' }));
    let dialog = await screen.findByRole('dialog', { name: 'Saved views' });
    await user.type(within(dialog).getByLabelText('Save the current settings as'), 'Qualified, best first');
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await screen.findByText('View Saved')).toBeInTheDocument();
    expect(db.views[0]).toMatchObject({
      screen: 'contacts',
      name: 'Qualified, best first',
      state: { filters: { status: 'qualified' }, sort: { key: 'score', dir: 'desc' }, view: 'table', hidden: ['email'] },
    });
    await user.keyboard('{Escape}');

    // Back to everything, as cards; the view brings the table, its filter, order and columns back.
    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await user.click(screen.getByRole('button', { name: 'Cards' }));
    expect(await screen.findByRole('listitem', { name: 'Cy Fox' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Views' }));
    dialog = await screen.findByRole('dialog', { name: 'Saved views' });
    await user.click(await within(dialog).findByRole('button', { name: 'Apply Qualified, best first' }));
    expect(await screen.findByText('View Applied')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=qualified&sort=score&dir=desc');
    const restored = await screen.findByRole('table', { name: 'Contacts' });
    await waitFor(() => expect(names(restored)).toEqual(['Bo Ray', 'Ann Lee']));
    expect(within(restored).getByRole('columnheader', { name: 'Score' })).toHaveAttribute('aria-sort', 'descending');
    expect(within(restored).queryByRole('columnheader', { name: 'Email' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Status')).toHaveTextContent('qualified');
  }, 20_000);
});
