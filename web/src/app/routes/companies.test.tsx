import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { makeCompany, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('company prospects', () => {
  it('shows cards with revenue in millions, status and score colour, and band totals', async () => {
    makeCompany({ name: 'Acme Bath LLC', revenue: '5200000', score: 85, status: 'not_interested', contactCount: 2 });
    makeCompany({ name: 'Delta Showers', revenue: null, score: 65, state: 'AZ', city: 'Phoenix', location: 'Phoenix, AZ' });
    makeCompany({ name: 'Low Co', score: 10 });
    renderApp('/companies', { signedIn: true });

    const acme = (await screen.findByRole('link', { name: 'Acme Bath LLC' })).closest('li');
    if (!acme) throw new Error('no card');
    expect(within(acme).getByText('$5.2M')).toBeInTheDocument();
    expect(within(acme).getByText('NOT INTERESTED')).toBeInTheDocument();
    expect(within(acme).getByText('85')).toHaveAttribute('data-band', 'green');
    expect(within(acme).getByText('2 contacts')).toBeInTheDocument();
    const delta = screen.getByRole('link', { name: 'Delta Showers' }).closest('li');
    if (!delta) throw new Error('no card');
    expect(within(delta).getByText('Not disclosed')).toBeInTheDocument();
    expect(within(delta).getByText('65')).toHaveAttribute('data-band', 'yellow');

    const tile = (label: string) => screen.getByText(label, { selector: 'p' }).parentElement;
    await waitFor(() => expect(tile('Total Companies')).toHaveTextContent('3'));
    expect(tile('High Score (80+)')).toHaveTextContent('1');
    expect(tile('Medium (60–79)')).toHaveTextContent('1');
    expect(tile('Low (below 60)')).toHaveTextContent('1');
  });

  it('filters by state, status and score band on the server', async () => {
    makeCompany({ name: 'Acme Bath LLC', score: 85 });
    makeCompany({ name: 'Delta Showers', score: 65, state: 'AZ' });
    const requests = recordRequests();
    const { user, router } = renderApp('/admin/companies', { signedIn: true });
    await screen.findByRole('link', { name: 'Delta Showers' });

    await user.selectOptions(screen.getByLabelText('State'), 'AZ');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Acme Bath LLC' })).not.toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Score'), 'high');
    expect(await screen.findByText('No companies match these filters')).toBeInTheDocument();
    expect(requests.at(-1)?.search).toBe('?state=AZ&scoreBand=high&limit=48&offset=0');
    expect(router.state.location.search).toBe('?state=AZ&scoreBand=high');
  });

  it("shows 'Unable to load companies' with Refresh after the retries fail", async () => {
    let calls = 0;
    server.use(
      http.get('/api/companies', ({ request }) => {
        if (new URL(request.url).searchParams.get('limit') !== '48') return undefined;
        calls += 1;
        return HttpResponse.json({ message: 'Database unavailable' }, { status: 503 });
      }),
    );
    const { user } = renderApp('/companies', { signedIn: true });
    expect(await screen.findByText('Unable to load companies', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(calls).toBe(4); // the first try and 3 retries
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    server.resetHandlers();
    makeCompany({ name: 'Back Again Inc' });
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('link', { name: 'Back Again Inc' })).toBeInTheDocument();
  }, 10_000);

  it('opens a company with its contacts grouped by tier', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC', competitorAlignment: 80 });
    makeContact({ companyId: company.id, firstName: 'Pat', lastName: 'Owner', title: 'President' });
    makeContact({ companyId: company.id, firstName: 'Max', lastName: 'Lead', title: 'Sales Manager' });
    makeContact({ companyId: company.id, firstName: 'Sam', lastName: 'Crew', title: 'Installer' });
    const { user } = renderApp('/companies', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Quick view Acme Bath LLC' }));
    const dialog = screen.getByRole('dialog', { name: 'Acme Bath LLC' });
    expect(await within(dialog).findByText('Compatibility: High')).toBeInTheDocument();
    expect(within(within(dialog).getByRole('region', { name: 'Executive Leadership' })).getByText('Pat Owner')).toBeInTheDocument();
    expect(within(within(dialog).getByRole('region', { name: 'Management Team' })).getByText('Max Lead')).toBeInTheDocument();
    expect(within(within(dialog).getByRole('region', { name: 'Key Staff' })).getByText('Sam Crew')).toBeInTheDocument();
  });

  it('edits a company: revenue as whole dollars with the hint, empty fields sent as null', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC', revenue: '5200000', employees: 40 });
    let body: unknown;
    server.use(
      http.put('/api/companies/:id', async ({ request }) => {
        body = await request.clone().json();
      }),
    );
    const { user } = renderApp('/companies', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit revenue of Acme Bath LLC: $5.2M' }));
    const form = screen.getByRole('form', { name: 'Edit company' });
    const revenue = within(form).getByLabelText('Revenue (USD)');
    expect(revenue).toHaveAccessibleDescription('Enter full amount (e.g., 5000000 for $5M)');
    await user.clear(revenue);
    await user.type(revenue, '7.5M');
    await user.click(within(form).getByRole('button', { name: 'Save Company' }));
    expect(within(form).getByText('Enter the revenue as a whole number of dollars')).toBeInTheDocument();

    await user.clear(revenue);
    await user.type(revenue, '7500000');
    await user.clear(within(form).getByLabelText('Employees'));
    await user.click(within(form).getByRole('button', { name: 'Save Company' }));
    expect(await screen.findByText('Company Updated')).toBeInTheDocument();
    expect(body).toMatchObject({ name: 'Acme Bath LLC', revenue: 7500000, employees: null, website: null });
    expect(company.revenue).toBe('7500000');
    expect(await screen.findByRole('button', { name: 'Edit revenue of Acme Bath LLC: $7.5M' })).toBeInTheDocument();
  });

  it("shows 'Update Failed' when the server refuses the change", async () => {
    makeCompany({ name: 'Acme Bath LLC' });
    const { user } = renderApp('/companies', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit Acme Bath LLC' }));
    const form = screen.getByRole('form', { name: 'Edit company' });
    await user.clear(within(form).getByLabelText('Name'));
    await user.click(within(form).getByRole('button', { name: 'Save Company' }));
    const toast = (await screen.findByText('Update Failed')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('Company name is required');
    expect(screen.getByRole('form', { name: 'Edit company' })).toBeInTheDocument();
  });
});
