import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { EmailHistory } from '@/features/contacts/api/get-email-history';
import type { ContactEmailAnswer } from '@/features/contacts/api/send-contact-email';
import { chooseOption } from '@/testing/select';
import { NO_EMAIL_FIGURES } from '@/testing/mocks/crm-handlers';
import { db, makeContact, makeJob } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';
import type { EnqueueResponse } from '@/types/api';

const ACME = { companyName: 'Acme Spas', companyCity: 'Austin', companyState: 'TX' };

/** The contact email route as the server answers: 202 with a send job, history listing the message. */
function emailServer(answer?: { status: number; message: string }) {
  const posted: unknown[] = [];
  const sent: { subject: string; status: string }[] = [];
  server.use(
    http.post('/api/contacts/email', async ({ request }) => {
      const body = (await request.json()) as { subject: string };
      posted.push(body);
      if (answer) return HttpResponse.json({ message: answer.message }, { status: answer.status });
      const job = makeJob({ kind: 'email_send', status: 'running' });
      db.jobs.push(job);
      sent.push({ subject: body.subject, status: 'queued' });
      return HttpResponse.json({ success: true, messageId: 'm1', jobId: job.id } satisfies ContactEmailAnswer, { status: 202 });
    }),
    http.get('/api/contacts/:id/email-history', () =>
      HttpResponse.json({
        totalEvents: 0,
        campaigns: [],
        recentEvents: [],
        figures: NO_EMAIL_FIGURES,
        messages: sent.map((m, i) => ({
          id: `m${i}`,
          subject: m.subject,
          campaignName: null,
          to: 'tom@example.com',
          status: m.status,
          error: null,
          createdAt: '2026-11-24T10:29:00Z',
          sentAt: m.status === 'sent' ? '2026-11-24T10:29:05Z' : null,
          openedAt: null,
          repliedAt: null,
        })),
      } satisfies EmailHistory),
    ),
  );
  return { posted, sent };
}

describe('contact actions', () => {
  it('emails a contact through the API, follows the send job and lists the message in the history', async () => {
    makeContact({ firstName: 'Tom', lastName: 'Reed', email: 'tom@example.com', ...ACME });
    const { posted, sent } = emailServer();
    const { user } = renderApp('/contacts?view=cards', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Email Tom Reed' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Tom Reed' });
    expect(within(dialog).getByLabelText('To')).toHaveValue('Tom Reed <tom@example.com>');
    await user.type(within(dialog).getByLabelText('Subject'), 'Catalog');
    await user.type(within(dialog).getByLabelText('Message'), 'Hi ');
    await chooseOption(user, within(dialog).getByLabelText('Insert field'), /\{\{firstName\}\}/);
    expect(within(dialog).getByLabelText('Message')).toHaveValue('Hi {{firstName}}');
    await user.click(within(dialog).getByRole('button', { name: 'Send email' }));

    await waitFor(() => expect(posted).toEqual([{ contactId: db.contacts[0]?.id, subject: 'Catalog', message: 'Hi {{firstName}}' }]));
    expect(await within(dialog).findByRole('button', { name: 'Sending…' })).toBeDisabled();
    const job = db.jobs.find((j) => j.kind === 'email_send');
    Object.assign(job ?? {}, { status: 'succeeded', result: { messageId: 'm1', status: 'sent' } });
    Object.assign(sent[0] ?? {}, { status: 'sent' });
    expect(await screen.findByText('Your email to Tom Reed was sent.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Email Tom Reed' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Email history of Tom Reed' }));
    const history = within(screen.getByRole('region', { name: 'Messages' }));
    expect(await history.findByText('Catalog')).toBeInTheDocument();
    expect(history.getByText('Sent')).toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog, and a send job's failure", async () => {
    makeContact({ firstName: 'Tom', lastName: 'Reed', email: 'gone@example.com' });
    emailServer({ status: 422, message: 'gone@example.com does not receive email from us (unsubscribed)' });
    const { user } = renderApp('/contacts?view=cards', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Email Tom Reed' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Tom Reed' });
    await user.click(within(dialog).getByRole('button', { name: 'Send email' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Subject and message are required.');
    await user.type(within(dialog).getByLabelText('Subject'), 'Hi');
    await user.type(within(dialog).getByLabelText('Message'), 'Hello');
    await user.click(within(dialog).getByRole('button', { name: 'Send email' }));
    expect(await within(dialog).findByText('gone@example.com does not receive email from us (unsubscribed)')).toBeInTheDocument();

    emailServer();
    await user.click(within(dialog).getByRole('button', { name: 'Send email' }));
    await waitFor(() => expect(db.jobs.some((j) => j.kind === 'email_send')).toBe(true));
    Object.assign(db.jobs.find((j) => j.kind === 'email_send') ?? {}, { status: 'failed', error: 'No mail server is configured' });
    expect(await within(dialog).findByText('No mail server is configured', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send email' })).toBeEnabled();
  });

  it('enriches a contact: follows the job and says what changed, or why it failed', async () => {
    makeContact({ firstName: 'tom', lastName: 'Reed' });
    server.use(
      http.post('/api/contacts/:id/enrich', () => {
        const job = makeJob({ kind: 'contact_enrich', status: 'running' });
        db.jobs.push(job);
        return HttpResponse.json({ jobId: job.id, status: job.status } satisfies EnqueueResponse, { status: 202 });
      }),
    );
    const { user } = renderApp('/contacts?view=cards', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Enrich tom Reed' }));
    expect(await screen.findByRole('button', { name: 'Enrich tom Reed' })).toHaveTextContent('Enriching…');
    await waitFor(() => expect(db.jobs).toHaveLength(1));
    const contact = db.contacts[0];
    if (contact) contact.firstName = 'Tom';
    Object.assign(db.jobs[0] ?? {}, {
      status: 'succeeded',
      result: { contactId: contact?.id, enrichedFields: ['firstName', 'phone'], message: 'Enriched 2 fields for Tom Reed' },
    });
    expect(
      await screen.findByText('Enriched 2 fields for Tom Reed: updated first name and phone.', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('listitem', { name: 'Tom Reed' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Enrich Tom Reed' }));
    await waitFor(() => expect(db.jobs).toHaveLength(2));
    Object.assign(db.jobs[1] ?? {}, { status: 'failed', error: 'database unavailable' });
    const failed = (await screen.findByText('Enrichment Failed', {}, { timeout: 3000 })).closest('[role="alert"]');
    expect(failed).toHaveTextContent('Failed to enrich Tom Reed. database unavailable');
  }, 15_000);

  it('enriches every contact the filters match in one job, with its progress', async () => {
    makeContact({ firstName: 'Tom', lastName: 'Reed', status: 'new_lead' });
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/contacts/bulk-enrich', async ({ request }) => {
        bodies.push(await request.json());
        const job = makeJob({ kind: 'contact_enrich', status: 'running', progress: { percent: 50, message: 'Enriched 1 of 2 contacts' } });
        db.jobs.push(job);
        return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
      }),
    );
    const { user } = renderApp('/contacts?status=new_lead', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Select all 2 matching' }));
    await user.click(screen.getByRole('button', { name: 'Enrich selected' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ contactFilter: { status: 'new_lead' } });
    const bar = await screen.findByRole('progressbar', { name: 'Bulk enrichment progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    Object.assign(db.jobs[0] ?? {}, { status: 'succeeded', result: { message: 'Enriched 2 of 2 contacts', enriched: 2, total: 2 } });
    expect(await screen.findByText('Enriched 2 of 2 contacts.', {}, { timeout: 3000 })).toBeInTheDocument();
  });

  it('Bulk AI Score on the automation screen scores every contact, not a first page', async () => {
    makeContact({ firstName: 'Ann' });
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/contacts/bulk-ai-score', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'All contacts already have high-quality scores.' });
      }),
    );
    const { user } = renderApp('/admin/business-development', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Bulk AI Score' }));
    await waitFor(() => expect(bodies).toEqual([{ contactFilter: {}, useEnterpriseModel: false }]));
    expect(await screen.findByText('All contacts already have high-quality scores.')).toBeInTheDocument();
  });

  it('shows the company on contact, lead and customer cards', async () => {
    makeContact({ firstName: 'Tom', lastName: 'Reed', status: 'new_lead', ...ACME });
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'customer', ...ACME });
    makeContact({ firstName: 'Bo', lastName: 'Solo', status: 'new_lead' });
    const { user, router } = renderApp('/contacts?view=cards', { signedIn: true });
    const tom = await screen.findByRole('listitem', { name: 'Tom Reed' });
    expect(tom).toHaveTextContent('Acme Spas · Austin, TX');
    expect(screen.getByRole('listitem', { name: 'Bo Solo' })).toHaveTextContent('No company');

    await router.navigate('/leads');
    const newLeads = await screen.findByRole('region', { name: 'New Leads' });
    const lead = await within(newLeads).findByRole('listitem', { name: 'Tom Reed' });
    expect(lead).toHaveTextContent('Acme Spas · Austin, TX');
    await user.click(within(lead).getByRole('button', { name: 'Quick view Tom Reed' }));
    const detail = screen.getByRole('dialog', { name: 'Tom Reed' });
    expect(detail).toHaveTextContent('Acme Spas · Austin, TX');
    expect(within(detail).getByRole('button', { name: 'Email Tom Reed' })).toBeInTheDocument();
    expect(within(detail).getByRole('button', { name: 'Enrich Tom Reed' })).toBeInTheDocument();
    await user.keyboard('{Escape}');

    await router.navigate('/customers?view=cards');
    const customers = await screen.findByRole('list', { name: 'Customers' });
    expect(within(customers).getByRole('listitem', { name: 'Ann Lee' })).toHaveTextContent('Acme Spas · Austin, TX');
  });
});
