import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { useRowSelection, type Sort } from '@/components/ui/table-tools';
import type { ContactSortKey } from '@/features/contacts/api/get-contacts';
import { db, makeContact } from '@/testing/mocks/db';
import { renderWithProviders } from '@/testing/test-utils';
import type { Contact } from '@/types/api';

import { CustomersTable } from './customers-table';

function Table({ onOpen }: { onOpen: (c: Contact) => void }) {
  const selection = useRowSelection();
  const [sort, setSort] = useState<Sort<ContactSortKey>>({ key: 'created', dir: 'desc' });
  return (
    <MemoryRouter>
      <CustomersTable
        rows={db.contacts}
        state={{ sort, toggleSort: (key) => setSort({ key, dir: 'asc' }), columns: { shown: () => true }, selection }}
        onOpen={onOpen}
      />
    </MemoryRouter>
  );
}

describe('CustomersTable', () => {
  it("shows a contact's columns but the status, and opens a customer's quick view", async () => {
    const cleo = makeContact({ firstName: 'Cleo', lastName: 'Buyer', status: 'customer', companyName: 'Acme Spas' });
    const onOpen = vi.fn();
    const { user } = renderWithProviders(<Table onOpen={onOpen} />);
    const table = screen.getByRole('table', { name: 'Customers' });
    expect(within(table).queryByRole('columnheader', { name: 'Status' })).not.toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Company' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Cleo Buyer' })).toHaveAttribute('href', `/contacts/${cleo.id}`);
    expect(screen.getByRole('checkbox', { name: 'Select all customers on this page' })).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Quick view Cleo Buyer' }));
    expect(onOpen).toHaveBeenCalledWith(cleo);
  });
});
