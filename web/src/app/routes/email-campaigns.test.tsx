import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { makeBulkCampaign } from '@/testing/mocks/campaign-handlers';
import { db, makeContact } from '@/testing/mocks/db';
import type { Job } from '@/types/api';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('Bulk Email Campaigns', () => {
  it('creates a campaign written in the composer, for everyone the filters match', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Hot', status: 'new_lead', score: 85, email: 'ann@x.test' });
    makeContact({ firstName: 'Bo', lastName: 'Warm', status: 'email_sent', score: 72, email: 'bo@x.test' });
    makeContact({ firstName: 'Cy', lastName: 'Cool', status: 'new_lead', score: 40, email: 'cy@x.test' });
    let created: Record<string, unknown> = {};
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/campaigns/bulk-email') {
        void request.clone().json().then((b) => (created = b as Record<string, unknown>));
      }
    });
    const { user } = renderApp('/admin/email-campaigns', { signedIn: true });
    expect(await screen.findByText(/No campaigns created yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Bulk Email Campaign' });
    await user.type(within(dialog).getByLabelText('Campaign name'), 'Spring dealers');
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please provide a campaign name, a subject and a message.');

    await user.click(within(dialog).getByRole('tab', { name: 'Message' }));
    // A seed template is a starting point: it fills subject and body.
    await chooseOption(user, within(dialog).getByLabelText('Start from template'), 'Follow-up');
    expect(within(dialog).getByLabelText('Subject')).toHaveValue('Following up, {{firstName}}');
    await user.click(within(dialog).getByRole('tab', { name: 'Target Contacts' }));
    // Defaults: score 70–100, new leads and emailed contacts: the list shows exactly those.
    await waitFor(() => expect(within(dialog).getByTestId('audience-count')).toHaveTextContent('2 contacts match these filters.'));
    const list = within(dialog).getByRole('list', { name: 'Matching contacts' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).queryByText('Cy')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Select all 2 matching' })).toBeChecked();
    await user.clear(within(dialog).getByLabelText('Minimum score'));
    await user.type(within(dialog).getByLabelText('Minimum score'), '30');
    await waitFor(() => expect(within(dialog).getByTestId('audience-count')).toHaveTextContent('3 contacts match these filters.'));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Campaign Created');
    const card = await screen.findByRole('listitem', { name: 'Spring dealers' });
    expect(card).toHaveAttribute('data-status', 'draft');
    expect(within(card).getByRole('button', { name: 'Send Now Spring dealers' })).toBeEnabled();
    // Selected by filter on the server: the filters go, not a list of ids.
    expect(created).toMatchObject({ subject: 'Following up, {{firstName}}', body: '<p>Hi {{firstName}}, following up.</p>', templateId: 'follow-up' });
    expect(created.targetFilters).toMatchObject({ scoreMin: 30, scoreMax: 100 });
    expect(created).not.toHaveProperty('selectedContactIds');
  });

  it('pages through every matching contact and sends the hand-picked ones', async () => {
    for (let i = 0; i < 60; i += 1) {
      makeContact({ firstName: `P${i}`, lastName: `Person${String(i).padStart(2, '0')}`, status: 'new_lead', score: 90, email: `p${i}@x.test` });
    }
    let created: Record<string, unknown> = {};
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/campaigns/bulk-email') {
        void request.clone().json().then((b) => (created = b as Record<string, unknown>));
      }
    });
    const { user } = renderApp('/admin/email-campaigns', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Create Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Bulk Email Campaign' });
    await user.type(within(dialog).getByLabelText('Campaign name'), 'Picked');
    await user.click(within(dialog).getByRole('tab', { name: 'Message' }));
    await user.type(within(dialog).getByLabelText('Subject'), 'Hello');
    await user.type(within(dialog).getByLabelText('Body'), 'Short note');
    await user.click(within(dialog).getByRole('tab', { name: 'Target Contacts' }));
    const list = within(dialog).getByRole('list', { name: 'Matching contacts' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(50));
    expect(within(dialog).getByText('Showing 50 of 60')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Load more contacts' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(60));
    expect(within(dialog).queryByRole('button', { name: 'Load more contacts' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Select all 60 matching' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Pick at least one contact, or select all matching.');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Pick P59 Person59' }));
    expect(within(dialog).getByTestId('audience-count')).toHaveTextContent('1 of 60 matching contacts picked.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByRole('listitem', { name: 'Picked' })).toBeInTheDocument();
    expect(created).toMatchObject({ subject: 'Hello', body: 'Short note' });
    expect((created.selectedContactIds as string[]).length).toBe(1);
  });

  it('sends a draft and follows its delivery to the end', async () => {
    const c = makeBulkCampaign({ name: 'Autumn push', totalRecipients: 40 });
    c.progress.total = 40;
    const { user } = renderApp('/admin/email-campaigns', { signedIn: true });
    const card = await screen.findByRole('listitem', { name: 'Autumn push' });
    await user.click(within(card).getByRole('button', { name: 'Send Now Autumn push' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Campaign SendingSending to 40 recipients.');
    const bar = await within(card).findByRole('progressbar', { name: 'Delivery of Autumn push' });
    Object.assign(c.progress, { handled: 20, percent: 50, queued: 20 });
    c.stats.sent = 20;
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'), { timeout: 5000 });
    expect(bar).toHaveAttribute('aria-valuetext', '50% — 20 of 40 handled');
    Object.assign(c, { status: 'sent', sentAt: new Date().toISOString() });
    Object.assign(c.progress, { handled: 40, percent: 100, queued: 0 });
    await waitFor(() => expect(card).toHaveAttribute('data-status', 'sent'), { timeout: 5000 });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
  }, 15_000);

  it('says why a send failed', async () => {
    makeBulkCampaign({ name: 'Nobody', totalRecipients: 0 });
    const { user } = renderApp('/admin/email-campaigns', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Send Now Nobody' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Send FailedNo contacts match this campaign.');
    expect(db.bulkCampaigns[0]?.status).toBe('draft');
  });

  it('follows the send job: a failed job shows its reason on the card, and Retry sends again', async () => {
    makeBulkCampaign({ name: 'Doomed', totalRecipients: 5 });
    const { user } = renderApp('/admin/email-campaigns', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Send Now Doomed' }));
    const card = await screen.findByRole('listitem', { name: 'Doomed' });
    const job = db.jobs.find((j) => j.kind === 'bulk_campaign_send');
    expect(job).toBeDefined();
    Object.assign(job as Job, { status: 'failed', error: 'SMTP refused the connection' });
    expect(await within(card).findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Failed: SMTP refused the connection');
    // The server then reports the campaign failed; Retry starts a new job.
    Object.assign(db.bulkCampaigns[0] ?? {}, { status: 'failed', failure: 'SMTP refused the connection' });
    await user.click(await within(card).findByRole('button', { name: 'Retry Doomed' }, { timeout: 5000 }));
    await waitFor(() => expect(db.bulkCampaigns[0]?.status).toBe('sending'));
  }, 15_000);

  it('says why a campaign waits and until when', async () => {
    const until = new Date();
    until.setHours(until.getHours() + 1, 0, 0, 0);
    makeBulkCampaign({
      name: 'Throttled',
      status: 'sending',
      totalRecipients: 94,
      progress: { total: 94, handled: 19, percent: 20, queued: 75, deferred: 0, failed: 0, suppressed: 0, inDoubt: 0 },
      waiting: { reason: 'hourly_limit', label: 'Hourly limit reached', until: until.toISOString() },
    });
    renderApp('/admin/email-campaigns', { signedIn: true });
    const card = await screen.findByRole('listitem', { name: 'Throttled' });
    const time = until.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
    const line = await within(card).findByRole('status', { name: 'Waiting' });
    // Tomorrow's 00:00 reads with its weekday.
    expect(line.textContent).toMatch(new RegExp(`^Hourly limit reached — resumes (\\w+ )?${time.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect(within(card).getByRole('progressbar', { name: 'Delivery of Throttled' })).toHaveAttribute('aria-valuenow', '20');
  });

  it('lists what is missing before real email goes out', async () => {
    renderApp('/admin/email-campaigns', { signedIn: true });
    const panel = await screen.findByRole('region', { name: 'Sending readiness' });
    expect(await within(panel).findByText('Some settings need attention before real email goes out.')).toBeInTheDocument();
    const checks = within(panel).getByRole('list', { name: 'Readiness checks' });
    expect(within(checks).getByText(/Outbox mode: messages are written to files/)).toBeInTheDocument();
  });
});
