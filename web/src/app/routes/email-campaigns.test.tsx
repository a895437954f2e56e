import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { makeBulkCampaign } from '@/testing/mocks/campaign-handlers';
import { db, makeContact } from '@/testing/mocks/db';
import { renderApp } from '@/testing/test-utils';

describe('Bulk Email Campaigns', () => {
  it('creates a campaign: required fields, the matching count, the template preview', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Hot', status: 'new_lead', score: 85, email: 'ann@x.test' });
    makeContact({ firstName: 'Bo', lastName: 'Warm', status: 'email_sent', score: 72, email: 'bo@x.test' });
    makeContact({ firstName: 'Cy', lastName: 'Cool', status: 'new_lead', score: 40, email: 'cy@x.test' });
    const { user } = renderApp('/admin/email-campaigns', { signedIn: true });
    expect(await screen.findByText(/No campaigns created yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Bulk Email Campaign' });
    await user.type(within(dialog).getByLabelText('Campaign name'), 'Spring dealers');
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please provide campaign name, subject, and select a template.');

    await user.type(within(dialog).getByLabelText('Subject'), 'Walk-in tubs for your showroom');
    await user.selectOptions(within(dialog).getByLabelText('Template'), 'follow-up');
    await user.click(within(dialog).getByRole('tab', { name: 'Target Contacts' }));
    // Defaults: score 70–100, new leads and emailed contacts.
    await waitFor(() => expect(within(dialog).getByTestId('audience-count')).toHaveTextContent('2 contacts match these filters.'));
    await user.clear(within(dialog).getByLabelText('Minimum score'));
    await user.type(within(dialog).getByLabelText('Minimum score'), '30');
    await waitFor(() => expect(within(dialog).getByTestId('audience-count')).toHaveTextContent('3 contacts match these filters.'));
    await user.click(within(dialog).getByRole('tab', { name: 'Template Preview' }));
    expect(within(dialog).getByTitle('Template preview')).toHaveAttribute('sandbox', '');
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Campaign Created');
    const card = await screen.findByRole('listitem', { name: 'Spring dealers' });
    expect(card).toHaveAttribute('data-status', 'draft');
    expect(within(card).getByRole('button', { name: 'Send Now Spring dealers' })).toBeEnabled();
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
});
