import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { captureDownloads } from '@/testing/downloads';
import { db, makeCompany, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('company prospects', () => {
  it('shows cards with revenue in millions, status and score colour, and band totals', async () => {
    makeCompany({ name: 'Acme Bath LLC', revenue: '5200000', score: 85, status: 'not_interested', contactCount: 2 });
    makeCompany({ name: 'Delta Showers', revenue: null, score: 65, state: 'AZ', city: 'Phoenix', location: 'Phoenix, AZ' });
    makeCompany({ name: 'Low Co', score: 10 });
    renderApp('/companies?view=cards', { signedIn: true });

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

    await chooseOption(user, screen.getByLabelText('State'), 'Arizona');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Acme Bath LLC' })).not.toBeInTheDocument());
    await chooseOption(user, screen.getByLabelText('Score'), 'High (80+)');
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

/** The table row of the company named `name` (its name is the row's link). */
async function findRow(name: string) {
  const row = (await screen.findByRole('link', { name })).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

/** The JSON bodies POSTed to `path`, in order. */
function postedTo(path: string) {
  const bodies: unknown[] = [];
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'POST' && new URL(request.url).pathname === path) void request.clone().json().then((b) => bodies.push(b));
  });
  return bodies;
}

const names = (table: HTMLElement) => within(table).getAllByRole('rowheader').map((h) => h.textContent);

describe('companies table', () => {
  it('is the default view, sorted on the server by its headers', async () => {
    const acme = makeCompany({ name: 'Acme Bath LLC', revenue: '5200000', employees: 1200, score: 85, status: 'qualified', contactCount: 2 });
    makeCompany({ name: 'Delta Showers', revenue: null, employees: null, score: 65, city: 'Phoenix', state: 'AZ' });
    makeCompany({ name: 'Bayou Tubs', revenue: '9000000', score: 75, city: 'Baton Rouge', state: 'LA' });
    const requests = recordRequests();
    const { user, router } = renderApp('/companies', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Companies' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent.replace(/[▲▼]/g, ''))).toEqual([
      '',
      'Name',
      'Industry',
      'City / State',
      'Status',
      'Score',
      'Revenue',
      'Employees',
      'Contacts',
      'Created',
      'Actions',
    ]);
    // The server's own order is the best score first.
    expect(within(table).getByRole('columnheader', { name: 'Score' })).toHaveAttribute('aria-sort', 'descending');
    const row = await findRow('Acme Bath LLC');
    expect(within(row).getByRole('link', { name: 'Acme Bath LLC' })).toHaveAttribute('href', `/companies/${acme.id}`);
    expect(row).toHaveTextContent('Dallas, TX');
    expect(within(row).getByText('QUALIFIED')).toBeInTheDocument();
    expect(within(row).getByText('85')).toHaveAttribute('data-band', 'green');
    expect(within(row).getByRole('button', { name: 'Edit revenue of Acme Bath LLC: $5.2M' })).toBeInTheDocument();
    expect(row).toHaveTextContent('1,200');
    expect(within(await findRow('Delta Showers')).getByText('Not disclosed')).toBeInTheDocument();

    const list = () => requests.filter((r) => r.path === '/api/companies' && r.search.includes('limit=48')).at(-1)?.search;
    await user.click(within(table).getByRole('button', { name: 'Revenue' }));
    // Unknown revenue last, whichever the direction.
    await waitFor(() => expect(names(table)).toEqual(['Bayou Tubs', 'Acme Bath LLC', 'Delta Showers']));
    expect(list()).toBe('?sort=revenue&dir=desc&limit=48&offset=0');
    await user.click(within(table).getByRole('button', { name: 'City / State' }));
    await waitFor(() => expect(names(table)).toEqual(['Delta Showers', 'Bayou Tubs', 'Acme Bath LLC']));
    expect(list()).toBe('?sort=state&dir=asc&limit=48&offset=0');
    expect(router.state.location.search).toBe('?sort=state&dir=asc');
  });

  it('sets the status of the ticked companies; there is no outreach from here', async () => {
    const acme = makeCompany({ name: 'Acme Bath LLC' });
    const delta = makeCompany({ name: 'Delta Showers' });
    const bodies = postedTo('/api/companies/bulk-status');
    const { user } = renderApp('/companies', { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all companies on this page' }));
    const bar = screen.getByRole('toolbar', { name: 'Selection actions' });
    expect(bar).toHaveTextContent('2 companies selected');
    expect(within(bar).queryByRole('button', { name: 'Add to sequence' })).not.toBeInTheDocument();
    await chooseOption(user, within(bar).getByLabelText('Set status'), 'partner');
    await user.click(within(bar).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('2 companies set to Partner.')).toBeInTheDocument();
    expect(screen.getByText('Status Updated')).toBeInTheDocument();
    expect(bodies).toEqual([{ status: 'partner', companyIds: [acme.id, delta.id] }]);
    expect(await within(await findRow('Delta Showers')).findByText('PARTNER')).toBeInTheDocument();
    expect(screen.queryByRole('toolbar', { name: 'Selection actions' })).not.toBeInTheDocument();
  });

  it('deletes the ticked companies once confirmed; their contacts stay', async () => {
    const acme = makeCompany({ name: 'Acme Bath LLC' });
    makeCompany({ name: 'Delta Showers' });
    makeContact({ firstName: 'Pat', companyId: acme.id, companyName: 'Acme Bath LLC' });
    const bodies = postedTo('/api/companies/bulk-delete');
    const { user } = renderApp('/companies', { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Acme Bath LLC' }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Selection actions' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 company?' });
    expect(dialog).toHaveTextContent('Their contacts and deals stay, without a company. This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1 company' }));
    expect(await screen.findByText('Companies Deleted')).toBeInTheDocument();
    expect(screen.getByText('Deleted 1 company.')).toBeInTheDocument();
    expect(bodies).toEqual([{ companyIds: [acme.id] }]);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Acme Bath LLC' })).not.toBeInTheDocument());
    expect(db.contacts[0]?.companyId).toBeNull();
  });

  it('exports the filtered companies from the header and the ticked ones from the bar', async () => {
    makeCompany({ name: 'Acme Bath LLC', state: 'TX' });
    const delta = makeCompany({ name: 'Delta Showers', state: 'AZ' });
    const downloads = captureDownloads();
    const requests = recordRequests();
    const exports = () => requests.filter((r) => r.path === '/api/companies/export').map((r) => r.search);
    const { user } = renderApp('/companies?state=AZ', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Export (1)' }));
    expect(await screen.findByText('Export Complete')).toBeInTheDocument();
    expect(downloads).toEqual(['companies-export.csv']);
    expect(exports()).toEqual(['?state=AZ']);

    await user.click(screen.getByRole('checkbox', { name: 'Select Delta Showers' }));
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(exports()).toEqual(['?state=AZ', `?ids=${delta.id}`]));

    await chooseOption(user, screen.getByLabelText('Status'), 'partner');
    await user.click(await screen.findByRole('button', { name: 'Export (0)' }));
    const toast = (await screen.findByText('No Companies to Export')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('Try clearing a filter.');
  });

  it('saves the filters, hidden columns and order as a named view, and brings them back', async () => {
    makeCompany({ name: 'Acme Bath LLC', state: 'AZ', score: 60 });
    makeCompany({ name: 'Zenith Spas', state: 'AZ', score: 90 });
    makeCompany({ name: 'Delta Showers', state: 'TX' });
    const { user, router } = renderApp('/companies', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Companies' });
    await chooseOption(user, screen.getByLabelText('State'), 'Arizona');
    await user.click(within(table).getByRole('button', { name: 'Name' }));
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: /Industry/ }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(names(table)).toEqual(['Acme Bath LLC', 'Zenith Spas']));

    await user.click(screen.getByRole('button', { name: 'Views' }));
    let dialog = await screen.findByRole('dialog', { name: 'Saved views' });
    await user.type(within(dialog).getByLabelText('Save the current settings as'), 'Arizona A–Z');
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByRole('listitem')).toHaveTextContent('Arizona A–Z');
    expect(db.views[0]).toMatchObject({
      screen: 'companies',
      state: { filters: { state: 'AZ' }, sort: { key: 'name', dir: 'asc' }, view: 'table', hidden: ['industry'] },
    });
    await user.keyboard('{Escape}');

    await chooseOption(user, screen.getByLabelText('State'), 'All states');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: /Industry/ }));
    await user.keyboard('{Escape}');
    await findRow('Delta Showers');
    await user.click(screen.getByRole('button', { name: 'Views' }));
    dialog = await screen.findByRole('dialog', { name: 'Saved views' });
    await user.click(await within(dialog).findByRole('button', { name: 'Apply Arizona A–Z' }));
    expect(router.state.location.search).toBe('?state=AZ&sort=name&dir=asc');
    await waitFor(() => expect(names(table)).toEqual(['Acme Bath LLC', 'Zenith Spas']));
    expect(within(table).queryByRole('columnheader', { name: 'Industry' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('State')).toHaveTextContent('Arizona');
  }, 20_000);
});
