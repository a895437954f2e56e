import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { captureDownloads } from '@/testing/downloads';
import { db, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const SEQUENCE = { id: 'seq1', name: 'Thank-you notes', status: 'active', maxDailyEnrollments: 50 };

describe('customers', () => {
  it('shows the stats from the API and searches the customers', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'customer', score: 90 });
    makeContact({ firstName: 'Bo', lastName: 'Ray', status: 'customer', score: 60 });
    makeContact({ firstName: 'Cy', lastName: 'Fox', status: 'qualified', score: 95 });
    const requests = recordRequests();
    const { user } = renderApp('/customers', { signedIn: true });

    expect(await screen.findByText('Ann Lee')).toBeInTheDocument();
    expect(screen.queryByText('Cy Fox')).not.toBeInTheDocument();
    const tile = (label: string) => screen.getByText(label).parentElement;
    expect(tile('Total Customers')).toHaveTextContent('2');
    expect(tile('High Value (85+)')).toHaveTextContent('1');

    await user.type(screen.getByLabelText('Search customers'), 'bo');
    expect(await screen.findByText('matching “bo”')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Customers' })).getAllByRole('rowheader')).toHaveLength(1));
    expect(requests.some((r) => r.path === '/api/customers' && r.search.startsWith('?q=bo'))).toBe(true);
  });

  it('explains where customers come from when there are none', async () => {
    renderApp('/admin/customers', { signedIn: true });
    expect(await screen.findByText('No customers yet')).toBeInTheDocument();
    expect(screen.getByText('Qualified leads converted on the Lead Pipeline appear here.')).toBeInTheDocument();
  });

  it('lists customers as a table sorted on the server, without a status column; cards on request', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Young', status: 'customer', score: 70, title: 'Owner' });
    makeContact({ firstName: 'Bo', lastName: 'Adams', status: 'customer', score: 90 });
    const requests = recordRequests();
    const { user, router } = renderApp('/customers', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Customers' });
    await within(table).findByRole('link', { name: 'Ann Young' });
    expect(within(table).queryByRole('columnheader', { name: 'Status' })).not.toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Created' })).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(within(table).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Bo Adams', 'Ann Young']));
    expect(requests.filter((r) => r.path === '/api/customers').at(-1)?.search).toBe('?sort=name&dir=asc&offset=0&limit=48');
    expect(router.state.location.search).toBe('?sort=name&dir=asc');

    await user.click(screen.getByRole('button', { name: 'Cards' }));
    expect(await within(screen.getByRole('list', { name: 'Customers' })).findByRole('listitem', { name: 'Ann Young' })).toHaveTextContent('Owner');
    expect(router.state.location.search).toBe('?sort=name&dir=asc&view=cards');
  });

  it('adds the ticked customers to a sequence, exports them by id and deletes them once confirmed', async () => {
    const ann = makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'customer' });
    const bo = makeContact({ firstName: 'Bo', lastName: 'Ray', status: 'customer' });
    const previews: unknown[] = [];
    const deletes: unknown[] = [];
    server.use(
      http.get('/api/email-sequences', () => HttpResponse.json([SEQUENCE])),
      http.post('/api/outreach/preview', async ({ request }) => {
        previews.push(await request.json());
        return HttpResponse.json({ selected: 2, reachable: 2, skipped: { noEmail: 0, suppressed: 0, alreadyEnrolled: 0, outsideRules: 0, overDailyLimit: 0 }, contactIds: [] });
      }),
    );
    server.events.on('request:start', ({ request }) => {
      if (new URL(request.url).pathname === '/api/contacts/bulk-delete') void request.clone().json().then((b) => deletes.push(b));
    });
    const downloads = captureDownloads();
    const requests = recordRequests();
    const { user } = renderApp('/customers', { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bo Ray' }));
    const bar = screen.getByRole('toolbar', { name: 'Selection actions' });
    expect(bar).toHaveTextContent('2 customers selected');
    // Customers keep their status: setting one would take them off this list.
    expect(within(bar).queryByLabelText('Set status')).not.toBeInTheDocument();

    await user.click(within(bar).getByRole('button', { name: 'Add to sequence' }));
    const dialog = screen.getByRole('dialog', { name: 'Add to sequence' });
    await chooseOption(user, await within(dialog).findByLabelText('Sequence'), /^Thank-you notes/);
    await within(dialog).findByLabelText('Who will be enrolled');
    expect(previews.at(-1)).toEqual({ contactIds: [ann.id, bo.id], sequenceId: 'seq1' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(within(bar).getByRole('button', { name: 'Export selected' }));
    expect(await screen.findByText('Export Complete')).toBeInTheDocument();
    expect(downloads).toEqual(['contacts-export.csv']);
    expect(requests.find((r) => r.path === '/api/contacts/export')?.search).toBe(`?ids=${ann.id}%2C${bo.id}`);

    await user.click(within(bar).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete 2 customers?' })).getByRole('button', { name: 'Delete 2 customers' }));
    expect(await screen.findByText('Customers Deleted')).toBeInTheDocument();
    expect(screen.getByText('Deleted 2 contacts.')).toBeInTheDocument();
    expect(deletes).toEqual([{ contactIds: [ann.id, bo.id] }]);
    expect(db.contacts).toEqual([]);
    expect(await screen.findByText('No customers yet')).toBeInTheDocument();
  });
});
