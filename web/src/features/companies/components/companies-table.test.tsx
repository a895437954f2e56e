import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { useRowSelection, type Sort } from '@/components/ui/table-tools';
import { chooseOption } from '@/testing/select';
import { captureDownloads } from '@/testing/downloads';
import { db, makeCompany } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';
import type { Company } from '@/types/api';

import type { CompanySortKey } from '../api/get-companies';
import { CompaniesTable } from './companies-table';
import { CompanySelectionActions } from './company-selection-actions';
import { ExportCompaniesButton } from './export-companies-button';

function Table({ onEdit }: { onEdit: (c: Company) => void }) {
  const selection = useRowSelection();
  const [sort, setSort] = useState<Sort<CompanySortKey>>({ key: 'score', dir: 'desc' });
  return (
    <MemoryRouter initialEntries={['/admin/companies']}>
      <CompaniesTable
        rows={db.companies}
        state={{ sort, toggleSort: (key) => setSort({ key, dir: 'asc' }), columns: { shown: () => true }, selection }}
        onEdit={onEdit}
        actions={(c) => <button type="button">Open {c.name}</button>}
      />
    </MemoryRouter>
  );
}

describe('CompaniesTable', () => {
  it('links each name (under /admin in admin mode), shows what is unknown as such and edits from the revenue', async () => {
    const acme = makeCompany({ name: 'Acme Bath LLC', city: null, state: null, employees: null, industry: null, contactCount: 3 });
    const onEdit = vi.fn();
    const { user } = renderWithProviders(<Table onEdit={onEdit} />);
    const table = screen.getByRole('table', { name: 'Companies' });
    expect(within(table).getByRole('link', { name: 'Acme Bath LLC' })).toHaveAttribute('href', `/admin/companies/${acme.id}`);
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells.map((c) => c.textContent).slice(1, 8)).toEqual(['—', '—', 'DISCOVERED', 'Score 70', '$5.2M', '—', '3']);
    await user.click(within(table).getByRole('button', { name: 'Edit revenue of Acme Bath LLC: $5.2M' }));
    expect(onEdit).toHaveBeenCalledWith(acme);
    expect(within(table).getByRole('button', { name: 'Open Acme Bath LLC' })).toBeInTheDocument();
  });

  it('labels a company found in the demo catalog as demo data, and one from OpenStreetMap as such', () => {
    makeCompany({ name: 'Invented Baths', sources: ['catalog'] });
    makeCompany({ name: 'Real Remodelers', sources: ['osm'] });
    makeCompany({ name: 'Typed In', sources: [] });
    renderWithProviders(<Table onEdit={vi.fn()} />);
    const nameCell = (name: string) => screen.getByRole('link', { name }).closest('td, th') as HTMLElement;
    expect(nameCell('Invented Baths')).toHaveTextContent(/^Invented BathsDemo data$/);
    expect(nameCell('Real Remodelers')).toHaveTextContent(/^Real RemodelersOpenStreetMap$/);
    expect(nameCell('Typed In')).toHaveTextContent(/^Typed In$/);
  });
});

describe('CompanySelectionActions', () => {
  it("says why a status change failed (an unknown company changes nothing) and keeps the selection", async () => {
    db.signedIn = true;
    const acme = makeCompany({ status: 'prospect' });
    const onDone = vi.fn();
    const { user } = renderWithProviders(<CompanySelectionActions ids={[acme.id, 'co-gone']} what="2 companies" onDone={onDone} onDeleted={onDone} />);
    await chooseOption(user, screen.getByLabelText('Set status'), 'qualified');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const toast = (await screen.findByText('Status Update Failed')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('Company not found: co-gone');
    expect(acme.status).toBe('prospect');
    expect(onDone).not.toHaveBeenCalled();
  });

  it('exports the picked companies by id', async () => {
    db.signedIn = true;
    const acme = makeCompany();
    const downloads = captureDownloads();
    const requests = recordRequests();
    const { user } = renderWithProviders(<CompanySelectionActions ids={[acme.id]} what="1 company" onDone={() => {}} onDeleted={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    expect(await screen.findByText('Companies downloaded as CSV.')).toBeInTheDocument();
    expect(downloads).toEqual(['companies-export.csv']);
    expect(requests.find((r) => r.path === '/api/companies/export')?.search).toBe(`?ids=${acme.id}`);
  });
});

describe('ExportCompaniesButton', () => {
  it('names how many match and reports a failed export', async () => {
    db.signedIn = true;
    server.use(http.get('/api/companies/export', () => HttpResponse.json({ message: 'Database unavailable' }, { status: 503 })));
    const { user } = renderWithProviders(<ExportCompaniesButton filters={{ state: 'TX' }} total="1,000+" />);
    await user.click(screen.getByRole('button', { name: 'Export (1,000+)' }));
    const toast = (await screen.findByText('Export Failed')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('Database unavailable');
  });
});
