import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { captureDownloads } from '@/testing/downloads';
import { db, makeCompany, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const REQUIRED_TEXT = 'Please fill in first name, last name, and email address.';

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
    renderApp('/admin/contacts', { signedIn: true });
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
    await screen.findByRole('listitem', { name: 'Tom Reed' });

    await user.selectOptions(screen.getByLabelText('Role'), 'CEO');
    await user.selectOptions(screen.getByLabelText('Status'), 'qualified');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Tom Reed' })).not.toBeInTheDocument());
    expect(screen.getByRole('listitem', { name: 'Maria Gomez' })).toBeInTheDocument();
    expect(requests.at(-1)?.search).toBe('?role=CEO&status=qualified&limit=50&offset=0');
    expect(router.state.location.search).toBe('?role=CEO&status=qualified');

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(await screen.findByRole('listitem', { name: 'Tom Reed' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('searches once typing pauses, and Clear All empties the search box', async () => {
    makeContact({ firstName: 'Maria', lastName: 'Gomez' });
    makeContact({ firstName: 'Tom', lastName: 'Reed' });
    const requests = recordRequests();
    const { user } = renderApp('/contacts', { signedIn: true });
    await screen.findByRole('listitem', { name: 'Tom Reed' });
    await user.type(screen.getByLabelText('Search'), 'mar');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Tom Reed' })).not.toBeInTheDocument());
    const searches = requests.filter((r) => r.path === '/api/contacts' && r.search.includes('q='));
    expect(searches.map((r) => r.search)).toEqual(['?q=mar&limit=50&offset=0']);

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(screen.getByLabelText('Search')).toHaveValue('');
    expect(await screen.findByRole('listitem', { name: 'Tom Reed' })).toBeInTheDocument();
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
    await within(form).findByRole('option', { name: 'Castillo Remodeling' });
    await user.selectOptions(within(form).getByLabelText('Company'), 'Castillo Remodeling');
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
    expect(await screen.findByRole('listitem', { name: 'Erin Castillo' })).toBeInTheDocument();
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
    await user.selectOptions(within(form).getByLabelText('Status'), 'new_lead');
    await user.click(within(form).getByRole('button', { name: 'Save Contact' }));
    expect(await screen.findByText('Contact Updated')).toBeInTheDocument();
    expect(db.contacts[0]?.status).toBe('new_lead');
    expect(await within(screen.getByRole('listitem', { name: 'Maria Gomez' })).findByText('NEW LEAD')).toBeInTheDocument();
  });

  it("tells when there is no phone number to call", async () => {
    makeContact({ firstName: 'Tom', lastName: 'Reed', phone: null, email: 'tom@example.com' });
    const { user } = renderApp('/contacts', { signedIn: true });
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

    await user.selectOptions(screen.getByLabelText('Status'), 'lost');
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
    const { user } = renderApp('/contacts', { signedIn: true });
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
    const { user } = renderApp('/contacts', { signedIn: true });
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
          figures: { sent: 3, delivered: 2, opened: 2, clicked: 1, replied: 1, bounced: 1 },
          recentEvents: Array.from({ length: 12 }, (_, i) => ({
            eventType: i % 2 ? 'opened' : 'delivered',
            timestamp: `2026-01-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
          })),
        }),
      ),
    );
    const { user } = renderApp('/contacts', { signedIn: true });
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
    const { user } = renderApp('/contacts', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Email history of Maria Gomez' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Interaction History' });
    expect(await within(dialog).findByText('Failed to load email history.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
