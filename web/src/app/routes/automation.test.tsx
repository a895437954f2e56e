import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { MOCK_SUPPRESSIONS, MOCK_WEBHOOK_TOKEN, ROTATED_WEBHOOK_TOKEN } from '@/testing/mocks/automation-handlers';
import { db, makeContact } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('Automation', () => {
  it('shows real figures, and zeros with a note when a call fails', async () => {
    makeContact({ score: 90 });
    makeContact({ score: 88 });
    makeContact({ score: 40 });
    server.use(http.get('/api/payment/analytics', () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    renderApp('/admin/business-development', { signedIn: true });
    const tile = (label: string) => screen.getByText(label).parentElement as HTMLElement;
    await waitFor(() => expect(tile('High-Value Leads')).toHaveTextContent('2'));
    expect(tile('High-Value Leads')).toHaveTextContent('Average score 73');
    expect(tile('Active Campaigns')).toHaveTextContent('2');
    expect(await screen.findByText(/Some figures could not be loaded and show as zero \(payments\)/)).toBeInTheDocument();
    expect(tile('Revenue')).toHaveTextContent('$0');
  });

  it('scores contacts in bulk and follows the job to its summary', async () => {
    makeContact({ firstName: 'Ann', score: 20 });
    makeContact({ firstName: 'Bo', score: 30 });
    const { user } = renderApp('/admin/business-development', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Bulk AI Score' }));
    const bar = await screen.findByRole('progressbar', { name: 'Bulk scoring progress' });
    expect(screen.getByRole('button', { name: 'Scoring...' })).toBeDisabled();
    const job = db.jobs.find((j) => j.kind === 'bulk_ai_score');
    expect(job).toBeDefined();
    Object.assign(job ?? {}, {
      status: 'succeeded',
      finishedAt: new Date().toISOString(),
      result: { scored: 2, highValueCount: 1, averageScore: 70, scoringResults: [] },
    });
    expect(await screen.findByText('2 contacts scored, 1 high-value (85+), average 70.')).toBeInTheDocument();
    expect(bar).not.toBeInTheDocument();
  });

  it('sends meeting reminders as a job and says what went now and what waits in the queue', async () => {
    const { user } = renderApp('/admin/business-development', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Send Reminders' }));
    expect(
      await screen.findByText('2 emails sent, 1 queued (sending limits), going out later, 1 text message sent for 2 meetings.'),
    ).toBeInTheDocument();
  });
});

describe('Email Configuration', () => {
  it('shows the sending readiness check in words', async () => {
    renderApp('/admin/email-config', { signedIn: true });
    const panel = await screen.findByRole('region', { name: 'Sending readiness' });
    expect(await within(panel).findByText(/Outbox mode: messages are written to files/)).toBeInTheDocument();
  });

  it('says mail goes to the outbox in demo mode, lists the webhook events, templates and real figures', async () => {
    const { user } = renderApp('/admin/email-config', { signedIn: true });
    expect(await screen.findByText('Demo mode: messages are written to the outbox folder')).toBeInTheDocument();
    const webhookUrl = `https://crm.example.com/api/email/webhook?token=${MOCK_WEBHOOK_TOKEN}`;
    expect(screen.getByLabelText('Webhook URL')).toHaveValue(webhookUrl);
    expect(screen.getByLabelText('Inbound Parse URL')).toHaveValue(`https://crm.example.com/api/email/inbound?token=${MOCK_WEBHOOK_TOKEN}`);
    expect(screen.getByText('Checked by the secret token in the webhook URL')).toBeInTheDocument();
    expect(screen.getByText(/Events to enable: Delivered, Opened, Clicked, Bounced, Dropped, Spam Report/)).toBeInTheDocument();
    expect(within(await screen.findByRole('list', { name: 'Email templates' })).getAllByRole('listitem')).toHaveLength(2);
    await waitFor(() => expect(screen.getByText('Emails Sent').parentElement).toHaveTextContent('40'));
    expect(screen.getByText('Click Rate').parentElement).toHaveTextContent('7.5%');
    await user.click(screen.getByRole('button', { name: 'Copy webhook URL' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toHaveTextContent('✓');
    expect(await navigator.clipboard.readText()).toBe(webhookUrl);
  });

  it('checks the sender domain as a job and shows each record with its verdict', async () => {
    const { user } = renderApp('/admin/email-config', { signedIn: true });
    const card = (await screen.findByRole('heading', { name: 'Sender Domain (SPF, DKIM, DMARC)' })).closest('section') as HTMLElement;
    expect(await within(card).findByText(/Not checked yet/)).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Check DNS records' }));
    const records = await within(card).findByRole('list', { name: 'Sender domain records' });
    const rows = within(records).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('SPF');
    expect(rows[0]).toHaveTextContent('OK');
    expect(rows[0]).toHaveTextContent('v=spf1 include:sendgrid.net ~all');
    expect(rows[1]).toHaveTextContent('DKIM');
    expect(rows[1]).toHaveTextContent('Not set up');
    expect(rows[2]).toHaveTextContent('Needs attention');
    expect(within(card).getByText((_, el) => el?.tagName === 'P' && /^example\.com checked /.test(el.textContent))).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Check DNS records' })).toBeEnabled();
  });

  it('rotates the webhook token after a confirmation and shows the new URLs', async () => {
    const { user } = renderApp('/admin/email-config', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Rotate Token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the webhook token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate token' }));
    expect(await screen.findByText('Webhook Token Rotated')).toBeInTheDocument();
    expect(screen.getByLabelText('Webhook URL')).toHaveValue(`https://crm.example.com/api/email/webhook?token=${ROTATED_WEBHOOK_TOKEN}`);
    expect(screen.getByLabelText('Inbound Parse URL')).toHaveValue(`https://crm.example.com/api/email/inbound?token=${ROTATED_WEBHOOK_TOKEN}`);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lists suppressed addresses and lets an admin lift one', async () => {
    let listed = [...MOCK_SUPPRESSIONS];
    const lifted: string[] = [];
    server.use(
      http.get('/api/email/suppressions', () => HttpResponse.json(listed, { headers: { 'X-Total-Count': String(listed.length) } })),
      http.delete('/api/email/suppressions/:email', ({ params }) => {
        const email = String(params.email);
        lifted.push(email);
        listed = listed.filter((s) => s.email !== email);
        return HttpResponse.json({ success: true, email, reason: 'spam_reported', contactId: 'c-1' });
      }),
    );
    const { user } = renderApp('/admin/email-config', { signedIn: true });
    const list = await screen.findByRole('list', { name: 'Suppressed addresses' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText(/Spam report \(webhook\)/)).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Lift suppression for forged@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lift this suppression?' });
    expect(dialog).toHaveTextContent('forged@example.com will receive email from us again.');
    await user.click(within(dialog).getByRole('button', { name: 'Lift suppression' }));
    expect(await screen.findByText('forged@example.com can be emailed again.')).toBeInTheDocument();
    expect(lifted).toEqual(['forged@example.com']);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Suppressed addresses' })).getAllByRole('listitem')).toHaveLength(1));
  });

  it('keeps the dialog open with the server message when a lift is refused', async () => {
    server.use(
      http.delete('/api/email/suppressions/:email', () => HttpResponse.json({ message: 'Administrator access required' }, { status: 403 })),
    );
    const { user } = renderApp('/admin/email-config', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Lift suppression for gone@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lift this suppression?' });
    await user.click(within(dialog).getByRole('button', { name: 'Lift suppression' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Administrator access required');
  });
});
