import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { db, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('Campaigns (single)', () => {
  it('asks for a name and a description, then creates the campaign for its audience', async () => {
    makeContact({ score: 90 });
    const requests = recordRequests();
    const { user } = renderApp('/admin/campaigns', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Create campaign' });
    await user.type(within(form).getByLabelText('Campaign name'), 'Q3 high-value');
    await user.click(within(form).getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Missing InformationPlease provide campaign name and description.');
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/api/campaigns')).toHaveLength(0);

    await user.type(within(form).getByLabelText('Description'), 'Dealers scoring 85 and over');
    await chooseOption(user, within(form).getByLabelText('AI model'), 'claude-4');
    await user.click(within(form).getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Campaign CreatedQ3 high-value: 1 contacts in its audience.');
    const card = await screen.findByRole('listitem', { name: 'Q3 high-value' });
    expect(card).toHaveTextContent('claude-4');
    expect(db.singleCampaigns[0]).toMatchObject({ targetAudience: 'high-value', aiModel: 'claude-4' });
    expect(within(form).getByLabelText('Campaign name')).toHaveValue('');
  });

  it('writes a draft campaign’s message and sends it to its audience, following the job', async () => {
    makeContact({ firstName: 'Hot', score: 90, email: 'hot@x.test' });
    const { user } = renderApp('/admin/campaigns', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Create campaign' });
    await user.type(within(form).getByLabelText('Campaign name'), 'Top leads');
    await user.type(within(form).getByLabelText('Description'), 'The best ones');
    await user.click(within(form).getByRole('button', { name: 'Create Campaign' }));
    const card = await screen.findByRole('listitem', { name: 'Top leads' });
    expect(card).toHaveAttribute('data-status', 'draft');
    await user.click(within(card).getByRole('button', { name: 'Write & Send Top leads' }));
    await user.type(within(card).getByLabelText('Subject'), 'Hello');
    await user.type(within(card).getByLabelText('Body'), 'A short note');
    await user.click(within(card).getByRole('button', { name: 'Send Now Top leads' }));
    await waitFor(() => expect(db.singleCampaigns[0]?.status).toBe('sending'));
    // The job dies: the card says why.
    const job = db.jobs.find((j) => j.kind === 'bulk_campaign_send');
    Object.assign(job ?? {}, { status: 'failed', error: 'SMTP refused' });
    expect(await within(card).findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Send failed: SMTP refused');
  }, 15_000);

  it('says opens were not tracked rather than 0% opened, and gives the rate of tracked sends', async () => {
    const base = { description: 'd', status: 'sent', subject: 'Hi', targetAudience: 'all-active', aiModel: 'gpt-5', totalRecipients: 3, startDate: null, endDate: null, createdAt: '2026-11-01T00:00:00Z' } as const;
    db.singleCampaigns.push(
      { ...base, id: 'c-untracked', name: 'Untracked', emailsSent: 3, opens: 0, openTracked: 0, openRate: 0 },
      { ...base, id: 'c-tracked', name: 'Tracked', emailsSent: 3, opens: 1, openTracked: 3, openRate: 33.3 },
    );
    server.use(
      http.get('/api/email/analytics', () =>
        HttpResponse.json({ totalSent: 6, openRate: 0, clickRate: 0, replyRate: 0, delivered: 6, bounced: 0, figures: { openTracked: 0 } }),
      ),
    );
    renderApp('/admin/campaigns', { signedIn: true });
    expect(await screen.findByRole('listitem', { name: 'Untracked' })).toHaveTextContent('3 sent · opens not tracked');
    expect(screen.getByRole('listitem', { name: 'Tracked' })).toHaveTextContent('3 sent · 33.3% opened');
    await waitFor(() => expect(screen.getByText('Open Rate').parentElement).toHaveTextContent('Not tracked'));
  });

  it('offers no sample data once mail was sent', async () => {
    renderApp('/admin/campaigns', { signedIn: true });
    await waitFor(() => expect(screen.getByText('Emails Sent (30 days)').parentElement).toHaveTextContent('40'));
    expect(screen.queryByRole('button', { name: 'Add sample tracking data' })).toBeNull();
  });

  it('adds sample tracking data on an install that sent nothing', async () => {
    server.use(
      http.get('/api/email/analytics', () =>
        HttpResponse.json({ totalSent: 0, openRate: 0, clickRate: 0, replyRate: 0, delivered: 0, bounced: 0 }),
      ),
    );
    const { user } = renderApp('/admin/campaigns', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Add sample tracking data' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Sample Data Added');
  });

  it('AI builder: eight template cards of nine, the context from the chosen one, a preview and the full email', async () => {
    db.aiModel = true;
    const { user } = renderApp('/campaigns', { signedIn: true });
    const cards = await screen.findByRole('list', { name: 'Campaign templates' });
    expect(within(cards).getAllByRole('button')).toHaveLength(8);
    const form = screen.getByRole('form', { name: 'AI campaign builder' });
    expect(screen.getByRole('list', { name: 'Best practices' })).toHaveTextContent('Send Tuesday-Thursday, 10 AM-2 PM');

    await user.click(within(cards).getByRole('button', { name: /High-Value Prospect/ }));
    const context = within(form).getByLabelText<HTMLTextAreaElement>('Campaign context');
    expect(context.value).toContain('scores 85+');
    // The ninth template is in the select only.
    await user.click(within(form).getByLabelText('Template'));
    expect(await screen.findAllByRole('option')).toHaveLength(9);
    await user.click(screen.getByRole('option', { name: 'Dealer Plan Renewal' }));
    expect(context.value).toContain('Dealer Plan Renewal campaign.');
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Generate' })).toBeEnabled());
    await user.click(within(form).getByRole('button', { name: 'Generate' }));

    const preview = await screen.findByRole('region', { name: 'Email preview' });
    expect(preview).toHaveTextContent('Line 6 of the email');
    expect(preview).not.toHaveTextContent('Line 7 of the email');
    expect(preview).toHaveTextContent('AI model: gpt-test');
    expect(preview).not.toHaveTextContent('Template fallback');
    expect(db.aiRequests[0]?.body).toMatchObject({ type: 'email', context: { type: 'Dealer Plan Renewal' } });
    await user.click(within(preview).getByRole('button', { name: 'View full email' }));
    expect(screen.getByRole('dialog', { name: 'Generated email' })).toHaveTextContent('Line 10 of the email');
  });

  it('AI builder without a model: says nothing was generated and opens the composer with the brief as a note', async () => {
    const { user } = renderApp('/campaigns', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'AI campaign builder' });
    expect(
      await within(form).findByText('No AI model is configured, so nothing was generated: write the email in the composer, or ask an admin to set one up.'),
    ).toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: 'Generate' })).toBeNull();
    await user.click(within(screen.getByRole('list', { name: 'Campaign templates' })).getByRole('button', { name: /High-Value Prospect/ }));
    await user.click(within(form).getByRole('button', { name: 'Write in the composer' }));

    const dialog = await screen.findByRole('dialog', { name: 'Write the email' });
    const body = within(dialog).getByLabelText<HTMLTextAreaElement>('Body');
    expect(body.value).toBe('High-Value Prospect campaign. Triggered when a lead scores 85+: a personal note from a senior rep proposing a meeting this week.');
    expect(within(dialog).getByLabelText('Subject')).toHaveValue('');
    expect(within(dialog).getByRole('region', { name: 'Email preview' })).toBeInTheDocument();
    // Nothing was asked of the template fallback, so no echoed brief passes for a generated email.
    expect(db.aiRequests).toHaveLength(0);
    expect(screen.queryByRole('dialog', { name: 'Generated email' })).toBeNull();
  });

  it('AI builder: an answer from the template fallback is not shown as a generated email', async () => {
    server.use(http.get('/api/mcp/status', () => HttpResponse.json({ kojieConnection: { status: 'demo' }, activeConnections: [], automationPotential: {}, protocolHealth: {} })));
    const { user } = renderApp('/campaigns', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'AI campaign builder' });
    await user.type(within(form).getByLabelText('Campaign context'), 'Spring dealer day invitation');
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Generate' })).toBeEnabled());
    await user.click(within(form).getByRole('button', { name: 'Generate' }));
    expect(await within(form).findByText(/^No AI model is configured, so nothing was generated/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Email preview' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Write in the composer' }));
    expect(within(await screen.findByRole('dialog', { name: 'Write the email' })).getByLabelText('Body')).toHaveValue('Spring dealer day invitation');
  });
});
