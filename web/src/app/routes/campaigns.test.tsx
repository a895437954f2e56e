import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

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
    await user.selectOptions(within(form).getByLabelText('AI model'), 'claude-4');
    await user.click(within(form).getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Campaign CreatedQ3 high-value: 1 contacts in its audience.');
    const card = await screen.findByRole('listitem', { name: 'Q3 high-value' });
    expect(card).toHaveTextContent('claude-4');
    expect(db.singleCampaigns[0]).toMatchObject({ targetAudience: 'high-value', aiModel: 'claude-4' });
    expect(within(form).getByLabelText('Campaign name')).toHaveValue('');
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
    const { user } = renderApp('/campaigns', { signedIn: true });
    const cards = await screen.findByRole('list', { name: 'Campaign templates' });
    expect(within(cards).getAllByRole('button')).toHaveLength(8);
    const form = screen.getByRole('form', { name: 'AI campaign builder' });
    expect(within(within(form).getByLabelText('Template')).getAllByRole('option')).toHaveLength(10);
    expect(screen.getByRole('list', { name: 'Best practices' })).toHaveTextContent('Send Tuesday-Thursday, 10 AM-2 PM');

    await user.click(within(cards).getByRole('button', { name: /High-Value Prospect/ }));
    const context = within(form).getByLabelText<HTMLTextAreaElement>('Campaign context');
    expect(context.value).toContain('scores 85+');
    // The ninth template is in the select only.
    await user.selectOptions(within(form).getByLabelText('Template'), 'renewal');
    expect(context.value).toContain('Dealer Plan Renewal campaign.');
    await user.click(within(form).getByRole('button', { name: 'Generate' }));

    const preview = await screen.findByRole('region', { name: 'Email preview' });
    expect(preview).toHaveTextContent('Line 6 of the email');
    expect(preview).not.toHaveTextContent('Line 7 of the email');
    expect(preview).toHaveTextContent('Template fallback');
    expect(db.aiRequests[0]?.body).toMatchObject({ type: 'email', context: { type: 'Dealer Plan Renewal' } });
    await user.click(within(preview).getByRole('button', { name: 'View full email' }));
    expect(screen.getByRole('dialog', { name: 'Generated email' })).toHaveTextContent('Line 10 of the email');
  });
});
