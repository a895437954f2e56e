import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { useRowSelection, type Sort } from '@/components/ui/table-tools';
import { chooseOption } from '@/testing/select';
import { captureDownloads } from '@/testing/downloads';
import { db, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import type { ContactSortKey } from '../api/get-contacts';
import { ContactSelectionActions } from './contact-selection-actions';
import { CONTACT_COLUMNS, ContactsTable, type ContactColumn } from './contacts-table';

function Table({ hidden = [] }: { hidden?: ContactColumn[] }) {
  const selection = useRowSelection();
  const [sort, setSort] = useState<Sort<ContactSortKey>>({ key: 'created', dir: 'desc' });
  return (
    <MemoryRouter>
      <ContactsTable
        label="Contacts"
        rows={db.contacts}
        columns={CONTACT_COLUMNS}
        state={{ sort, toggleSort: (key) => setSort({ key, dir: 'asc' }), columns: { shown: (k) => !hidden.includes(k) }, selection }}
      />
    </MemoryRouter>
  );
}

/** The JSON bodies POSTed to `path`, in order. */
function postedTo(path: string) {
  const bodies: unknown[] = [];
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'POST' && new URL(request.url).pathname === path) void request.clone().json().then((b) => bodies.push(b));
  });
  return bodies;
}

describe('ContactsTable', () => {
  it('links each name to the contact and fills what is missing with a dash; hidden columns are left out', async () => {
    const ann = makeContact({ firstName: 'Ann', lastName: 'Lee', title: null, email: null, phone: null });
    const { user } = renderWithProviders(<Table hidden={['phone']} />);
    const table = screen.getByRole('table', { name: 'Contacts' });
    expect(within(table).getByRole('link', { name: 'Ann Lee' })).toHaveAttribute('href', `/contacts/${ann.id}`);
    expect(within(table).queryByRole('columnheader', { name: 'Phone' })).not.toBeInTheDocument();
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['', '—', 'No company', 'DISCOVERED', 'Score 50', '—', '—', expect.stringMatching(/2026/)]);
    await user.click(within(table).getByRole('button', { name: 'Status' }));
    expect(within(table).getByRole('columnheader', { name: 'Status' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('labels the contacts a demo catalog scan found, and only those', () => {
    makeContact({ firstName: 'Gen', lastName: 'Erated', demo: true });
    makeContact({ firstName: 'Real', lastName: 'Person', demo: false });
    renderWithProviders(<Table />);
    const rows = within(screen.getByRole('table', { name: 'Contacts' })).getAllByRole('row');
    const row = (name: string) => rows.find((r) => r.textContent.includes(name)) as HTMLElement;
    expect(within(row('Gen Erated')).getByText('Demo data')).toBeInTheDocument();
    expect(within(row('Real Person')).queryByText('Demo data')).not.toBeInTheDocument();
  });
});

describe('ContactSelectionActions', () => {
  it('sets the status of the picked contacts, then clears the selection and says what changed', async () => {
    db.signedIn = true;
    const ann = makeContact();
    const bodies = postedTo('/api/contacts/bulk-status');
    const onDone = vi.fn();
    const { user } = renderWithProviders(
      <ContactSelectionActions selection={{ contactIds: [ann.id] }} what="1 contact" title="Contacts" withStatus onDone={onDone} onDeleted={vi.fn()} />,
    );
    await chooseOption(user, screen.getByLabelText('Set status'), 'hot');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('1 contact set to Hot.')).toBeInTheDocument();
    expect(bodies).toEqual([{ status: 'hot', contactIds: [ann.id] }]);
    expect(onDone).toHaveBeenCalledOnce();
  });

  it("says why a status change failed and keeps the selection", async () => {
    db.signedIn = true;
    const onDone = vi.fn();
    const { user } = renderWithProviders(
      <ContactSelectionActions selection={{ contactIds: ['ct-gone'] }} what="1 contact" title="Contacts" withStatus onDone={onDone} onDeleted={vi.fn()} />,
    );
    await chooseOption(user, screen.getByLabelText('Set status'), 'hot');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const toast = (await screen.findByText('Status Update Failed')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('Contact not found: ct-gone');
    expect(onDone).not.toHaveBeenCalled();
  });

  it('without a status control, exports all matching by the filters and deletes once confirmed', async () => {
    db.signedIn = true;
    makeContact({ status: 'customer' });
    makeContact({ status: 'customer' });
    makeContact({ status: 'lost' });
    const downloads = captureDownloads();
    const requests = recordRequests();
    const onDone = vi.fn();
    const onDeleted = vi.fn();
    const { user } = renderWithProviders(
      <ContactSelectionActions selection={{ contactFilter: { status: 'customer' } }} what="2 customers" title="Customers" onDone={onDone} onDeleted={onDeleted} />,
    );
    expect(screen.queryByLabelText('Set status')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    expect(await screen.findByText('Export Complete')).toBeInTheDocument();
    expect(downloads).toEqual(['contacts-export.csv']);
    expect(requests.find((r) => r.path === '/api/contacts/export')?.search).toBe('?status=customer');

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete 2 customers?' })).getByRole('button', { name: 'Delete 2 customers' }));
    expect(await screen.findByText('Customers Deleted')).toBeInTheDocument();
    await waitFor(() => expect(db.contacts.map((c) => c.status)).toEqual(['lost']));
    expect(onDeleted).toHaveBeenCalledOnce();
    expect(onDone).not.toHaveBeenCalled();
  });
});
