import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { db, makeContact } from '@/testing/mocks/db';
import { recordRequests } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const column = (name: string) => screen.getByRole('region', { name });

describe('lead pipeline', () => {
  it('shows the four stages with count, average score and high-priority count', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Hot', status: 'new_lead', score: 85 });
    makeContact({ firstName: 'Bo', lastName: 'Warm', status: 'new_lead', score: 72 });
    makeContact({ firstName: 'Cy', lastName: 'Cool', status: 'new_lead', score: 50 });
    makeContact({ firstName: 'Di', lastName: 'Customer', status: 'customer', score: 99 });
    renderApp('/leads', { signedIn: true });

    const newLeads = await screen.findByRole('region', { name: 'New Leads' });
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual(
      expect.arrayContaining(['New Leads', 'Email Sent', 'Meeting Scheduled', 'Qualified']),
    );
    expect(within(newLeads).getByText('Count').nextSibling).toHaveTextContent('3');
    expect(within(newLeads).getByText('Avg score').nextSibling).toHaveTextContent('69');
    expect(within(newLeads).getByText('High priority', { selector: 'dt' }).nextSibling).toHaveTextContent('1');
    // 80+ is high priority (red), 70–79 medium (orange).
    expect(within(newLeads).getByRole('listitem', { name: 'Ann Hot' })).toHaveAttribute('data-priority', 'high');
    expect(within(newLeads).getByRole('listitem', { name: 'Bo Warm' })).toHaveAttribute('data-priority', 'medium');
    expect(within(newLeads).getByRole('listitem', { name: 'Cy Cool' })).toHaveAttribute('data-priority', 'normal');
    // Customers are not on the board.
    expect(screen.queryByRole('listitem', { name: 'Di Customer' })).not.toBeInTheDocument();
    expect(within(column('Email Sent')).getByText('No leads in this stage')).toBeInTheDocument();
  });

  it('moves a lead one stage forward and back; no back from the first stage', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    const requests = recordRequests();
    const { user } = renderApp('/admin/leads', { signedIn: true });
    const card = await within(await screen.findByRole('region', { name: 'New Leads' })).findByRole('listitem', { name: 'Ann Lee' });
    expect(within(card).queryByRole('button', { name: /back/ })).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Move Ann Lee to Email Sent' }));
    expect(await within(column('Email Sent')).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();
    expect(screen.getByText('Ann Lee moved to Email Sent.')).toBeInTheDocument();
    expect(requests).toContainEqual({ method: 'POST', path: `/api/contacts/${db.contacts[0]?.id ?? ''}/pipeline-move`, search: '' });

    await user.click(screen.getByRole('button', { name: 'Move Ann Lee back to New Leads' }));
    expect(await within(column('New Leads')).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();
  });

  it('converts a qualified lead to a customer', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'qualified' });
    const { user } = renderApp('/leads', { signedIn: true });
    const qualified = await screen.findByRole('region', { name: 'Qualified' });
    const card = await within(qualified).findByRole('listitem', { name: 'Ann Lee' });
    expect(within(card).queryByRole('button', { name: /Move Ann Lee to/ })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Convert Ann Lee to customer' }));
    expect(await screen.findByText('Converted to Customer')).toBeInTheDocument();
    await waitFor(() => expect(within(qualified).queryByRole('listitem', { name: 'Ann Lee' })).not.toBeInTheDocument());
    expect(db.contacts[0]?.status).toBe('customer');
  });

  it("reports 'Update Failed' when the server refuses a move", async () => {
    const contact = makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    const { user } = renderApp('/leads', { signedIn: true });
    const card = await screen.findByRole('listitem', { name: 'Ann Lee' });
    contact.status = 'lost'; // changed elsewhere meanwhile: the server answers 409
    await user.click(within(card).getByRole('button', { name: 'Move Ann Lee to Email Sent' }));
    const toast = (await screen.findByText('Update Failed')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('Failed to update contact status.');
  });

  it('moves the selected leads to a chosen stage in bulk', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    makeContact({ firstName: 'Bo', lastName: 'Ray', status: 'email_sent' });
    makeContact({ firstName: 'Cy', lastName: 'Fox', status: 'new_lead' });
    const { user } = renderApp('/leads', { signedIn: true });
    await screen.findByRole('listitem', { name: 'Ann Lee' });

    await user.click(screen.getByRole('button', { name: 'Bulk Actions' }));
    const bulk = screen.getByRole('form', { name: 'Bulk move' });
    expect(within(bulk).getByRole('button', { name: 'Move' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bo Ray' }));
    await user.selectOptions(within(bulk).getByLabelText('Move selected to'), 'meeting_scheduled');
    await user.click(within(bulk).getByRole('button', { name: 'Move' }));

    expect(await screen.findByText('2 of 2 contacts moved.')).toBeInTheDocument();
    const meeting = column('Meeting Scheduled');
    expect(await within(meeting).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();
    expect(within(meeting).getByRole('listitem', { name: 'Bo Ray' })).toBeInTheDocument();
    expect(within(column('New Leads')).getByRole('listitem', { name: 'Cy Fox' })).toBeInTheDocument();
    expect(within(bulk).getByText('0 selected')).toBeInTheDocument();
  });

  it('opens the contact detail dialog from a card', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead', score: 92, isVerified: true, verificationScore: 64 });
    const { user } = renderApp('/leads', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Ann Lee' }));
    const dialog = screen.getByRole('dialog', { name: 'Ann Lee' });
    expect(within(dialog).getByText('Excellent')).toBeInTheDocument();
    expect(within(dialog).getByText('Verified')).toBeInTheDocument();
    expect(within(dialog).getByText('64%')).toHaveClass('text-amber-700');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ann Lee' })).toHaveFocus();
  });
});
