import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

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

  it('sends meeting reminders and says how many went out', async () => {
    const { user } = renderApp('/admin/business-development', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Send Reminders' }));
    expect(await screen.findByText('3 emails and 1 text messages for 2 meetings.')).toBeInTheDocument();
  });
});

describe('Email Configuration', () => {
  it('says mail goes to the outbox in demo mode, lists the webhook events, templates and real figures', async () => {
    const { user } = renderApp('/admin/email-config', { signedIn: true });
    expect(await screen.findByText('Demo mode: messages are written to the outbox folder')).toBeInTheDocument();
    expect(screen.getByLabelText('Webhook URL')).toHaveValue('https://crm.example.com/api/email/webhook');
    expect(screen.getByText(/Events to enable: Delivered, Opened, Clicked, Bounced, Dropped, Spam Report/)).toBeInTheDocument();
    expect(within(await screen.findByRole('list', { name: 'Email templates' })).getAllByRole('listitem')).toHaveLength(2);
    await waitFor(() => expect(screen.getByText('Emails Sent').parentElement).toHaveTextContent('40'));
    expect(screen.getByText('Click Rate').parentElement).toHaveTextContent('7.5%');
    await user.click(screen.getByRole('button', { name: 'Copy webhook URL' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toHaveTextContent('✓');
    expect(await navigator.clipboard.readText()).toBe('https://crm.example.com/api/email/webhook');
  });
});
