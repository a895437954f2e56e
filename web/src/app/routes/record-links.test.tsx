import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { makeCompany, makeContact, makeDeal, makeMeeting } from '@/testing/mocks/db';
import { renderApp } from '@/testing/test-utils';

/** The list item (card) named `name`. */
const card = async (name: string) => screen.findByRole('listitem', { name });

/** The table row of the record named `name` (its name is the row's link). */
async function row(name: string) {
  const found = (await screen.findByRole('link', { name })).closest('tr');
  if (!found) throw new Error(`no row for ${name}`);
  return found;
}

describe('lists link to the record pages', () => {
  it('contacts: the name opens the contact, the company line opens the company', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC' });
    const ann = makeContact({ firstName: 'Ann', lastName: 'Lee', companyId: company.id, companyName: 'Acme Bath LLC' });
    const { user, router } = renderApp('/admin/contacts', { signedIn: true });
    const item = await row('Ann Lee');
    expect(within(item).getByRole('link', { name: 'Acme Bath LLC' })).toHaveAttribute('href', `/admin/companies/${company.id}`);
    // The row's buttons stay.
    expect(within(item).getByRole('button', { name: 'Edit Ann Lee' })).toBeInTheDocument();
    await user.click(within(item).getByRole('link', { name: 'Ann Lee' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann Lee' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/admin/contacts/${ann.id}`);
  });

  it('companies: the name opens the company; Quick view still opens the dialog', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC' });
    const { user, router } = renderApp('/companies', { signedIn: true });
    const link = await screen.findByRole('link', { name: 'Acme Bath LLC' });
    expect(link).toHaveAttribute('href', `/companies/${company.id}`);
    await user.click(screen.getByRole('button', { name: 'Quick view Acme Bath LLC' }));
    expect(screen.getByRole('dialog', { name: 'Acme Bath LLC' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bath LLC' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/companies/${company.id}`);
  });

  it('customers: the name opens the contact', async () => {
    const c = makeContact({ firstName: 'Cleo', lastName: 'Buyer', status: 'customer' });
    renderApp('/customers', { signedIn: true });
    const item = await row('Cleo Buyer');
    expect(within(item).getByRole('link', { name: 'Cleo Buyer' })).toHaveAttribute('href', `/contacts/${c.id}`);
    expect(within(item).getByRole('button', { name: 'Quick view Cleo Buyer' })).toBeInTheDocument();
  });

  it('lead board: the name opens the contact, the moves stay', async () => {
    const c = makeContact({ firstName: 'Ann', lastName: 'Hot', status: 'new_lead', score: 85 });
    renderApp('/admin/leads', { signedIn: true });
    const item = await card('Ann Hot');
    expect(within(item).getByRole('link', { name: 'Ann Hot' })).toHaveAttribute('href', `/admin/contacts/${c.id}`);
    expect(within(item).getByRole('button', { name: 'Move Ann Hot to Email Sent' })).toBeInTheDocument();
  });

  it('pipeline: the deal title opens the deal, its menu stays', async () => {
    const deal = makeDeal({ title: 'Showroom remodel', stage: 'proposal' });
    renderApp('/admin/pipeline', { signedIn: true });
    const item = await card('Showroom remodel');
    expect(within(item).getByRole('link', { name: 'Showroom remodel' })).toHaveAttribute('href', `/admin/deals/${deal.id}`);
    expect(within(item).getByRole('button', { name: 'Actions for Showroom remodel' })).toBeInTheDocument();
  });

  it("meetings: links to the meeting's contact and company", async () => {
    const company = makeCompany({ name: 'Acme Bath LLC' });
    const contact = makeContact({ firstName: 'Ann', lastName: 'Lee' });
    makeMeeting({ title: 'Site visit', contactId: contact.id, companyId: company.id });
    makeMeeting({ title: 'Internal sync' });
    renderApp('/meetings', { signedIn: true });
    const item = await card('Site visit');
    expect(within(item).getByRole('link', { name: 'Open contact of Site visit' })).toHaveAttribute('href', `/contacts/${contact.id}`);
    expect(within(item).getByRole('link', { name: 'Open company of Site visit' })).toHaveAttribute('href', `/companies/${company.id}`);
    expect(within(await card('Internal sync')).queryByRole('link')).not.toBeInTheDocument();
  });
});
