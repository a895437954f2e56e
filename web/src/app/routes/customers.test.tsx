import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { makeContact } from '@/testing/mocks/db';
import { recordRequests } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

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
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Customers' })).getAllByRole('listitem')).toHaveLength(1),
    );
    expect(requests.some((r) => r.path === '/api/customers' && r.search.startsWith('?q=bo'))).toBe(true);
  });

  it('explains where customers come from when there are none', async () => {
    renderApp('/admin/customers', { signedIn: true });
    expect(await screen.findByText('No customers yet')).toBeInTheDocument();
    expect(screen.getByText('Qualified leads converted on the Lead Pipeline appear here.')).toBeInTheDocument();
  });
});
