import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { DuplicateGroup, DuplicateRecord, PossibleDuplicate } from '@/features/merge/api/types';
import { seriousViolations } from '@/testing/axe';
import { db, makeCompany } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

function record(id: string, name: string, extra: Partial<DuplicateRecord> = {}): DuplicateRecord {
  return {
    id,
    name,
    email: null,
    phone: '(214) 555-0100',
    website: null,
    city: 'Dallas',
    state: 'TX',
    title: null,
    companyId: null,
    companyName: null,
    status: 'prospect',
    score: 60,
    related: 2,
    createdAt: '2026-01-10T10:00:00Z',
    href: `/companies/${id}`,
    ...extra,
  };
}

/** A stateful stand-in for the duplicates api: one phone group, merged or dismissed by the screen. */
function mockDuplicates() {
  let groups: DuplicateGroup[] = [
    {
      id: 'phone:2145550100',
      reason: 'phone',
      label: 'Same phone',
      count: 3,
      records: [record('c1', 'Acme Bath'), record('c2', 'Acme Bath LLC', { related: 0 }), record('c3', 'Acme Baths of Texas')],
    },
    {
      id: 'domain:acme.example',
      reason: 'domain',
      label: 'Same website',
      count: 2,
      records: [record('c4', 'Bath Pros', { website: 'https://acme.example' }), record('c5', 'Bath Pros Inc')],
    },
  ];
  const merges: unknown[] = [];
  const dismissals: unknown[] = [];
  const bulk: unknown[] = [];
  const queries: string[] = [];
  server.use(
    http.get('/api/duplicates', ({ request }) => {
      const url = new URL(request.url);
      queries.push(url.search);
      const reason = url.searchParams.get('reason');
      const list = groups.filter((g) => !reason || g.reason === reason);
      return HttpResponse.json(list, { headers: { 'X-Total-Count': String(list.length) } });
    }),
    http.post('/api/merge', async ({ request }) => {
      const body = (await request.json()) as { survivorId: string; mergeIds: string[] };
      merges.push(body);
      groups = groups.filter((g) => !g.records.some((r) => r.id === body.survivorId));
      return HttpResponse.json({ survivorId: body.survivorId, merged: body.mergeIds.length, moved: { contacts: 2 } });
    }),
    http.post('/api/duplicates/dismiss', async ({ request }) => {
      const body = (await request.json()) as { ids: string[] };
      dismissals.push(body);
      groups = groups.filter((g) => !g.records.some((r) => body.ids.includes(r.id)));
      return HttpResponse.json({ dismissedPairs: 1 });
    }),
    http.post('/api/merge/bulk', async ({ request }) => {
      bulk.push(await request.json());
      return HttpResponse.json({ jobId: 'job-merge-1', status: 'queued' }, { status: 202 });
    }),
    http.get('/api/jobs/job-merge-1', () => {
      groups = groups.filter((g) => g.reason !== 'domain');
      return HttpResponse.json({
        id: 'job-merge-1',
        kind: 'record_merge',
        status: 'succeeded',
        attempts: 1,
        maxAttempts: 3,
        progress: { percent: 100, message: 'Merged 1 of 1 groups (same website)' },
        result: { message: 'Merged 1 groups of duplicates (same website): 1 records folded into their survivors' },
        error: null,
        createdAt: '2026-01-10T10:00:00Z',
        runAt: '2026-01-10T10:00:00Z',
        startedAt: '2026-01-10T10:00:00Z',
        finishedAt: '2026-01-10T10:00:01Z',
      });
    }),
  );
  return { merges, dismissals, bulk, queries };
}

describe('Duplicates screen', () => {
  it('is in the Customer Management group and merges the picked records into the kept one', async () => {
    const calls = mockDuplicates();
    const { user } = renderApp('/', { signedIn: true });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(within(nav).getByRole('list', { name: 'Customer Management' })).getByRole('link', { name: 'Duplicates' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Duplicates' }, { timeout: 5000 })).toBeInTheDocument();

    const group = await screen.findByRole('region', { name: /Same phone/ });
    expect(within(group).getByText('3 records')).toBeInTheDocument();
    expect(within(group).getByRole('link', { name: 'Acme Bath LLC' })).toHaveAttribute('href', '/companies/c2');
    // Keep the second, leave the third out.
    await user.click(within(group).getByRole('radio', { name: 'Keep Acme Bath LLC' }));
    await user.click(within(group).getByRole('checkbox', { name: 'Merge Acme Baths of Texas' }));
    expect(within(group).getByRole('checkbox', { name: 'Merge Acme Bath LLC' })).toBeDisabled();
    await user.click(within(group).getByRole('button', { name: 'Merge into the kept record' }));
    const dialog = await screen.findByRole('dialog', { name: 'Merge into Acme Bath LLC?' });
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(calls.merges).toEqual([{ recordType: 'company', survivorId: 'c2', mergeIds: ['c1'] }]));
    expect(await screen.findByText('Merged 1 company')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: /Same phone/ })).not.toBeInTheDocument());
    expect(await seriousViolations(screen.getByRole('main'))).toEqual([]);
  });

  it('remembers "not duplicates" and merges every group of one kind as a job', async () => {
    const calls = mockDuplicates();
    const { user } = renderApp('/duplicates', { signedIn: true });
    const group = await screen.findByRole('region', { name: /Same phone/ });
    await user.click(within(group).getByRole('button', { name: 'Not duplicates' }));
    await waitFor(() => expect(calls.dismissals).toEqual([{ recordType: 'company', ids: ['c1', 'c2', 'c3'] }]));
    expect(await screen.findByText('Marked as not duplicates')).toBeInTheDocument();

    // "Merge all" is offered once a kind is chosen.
    expect(screen.queryByRole('button', { name: /Merge all/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Kind of duplicate' }));
    await user.click(await screen.findByRole('option', { name: 'Same website' }));
    await waitFor(() => expect(calls.queries.at(-1)).toContain('reason=domain'));
    await user.click(await screen.findByRole('button', { name: 'Merge all: same website' }));
    const dialog = await screen.findByRole('dialog', { name: 'Merge every group (same website)?' });
    await user.click(within(dialog).getByRole('button', { name: 'Merge all' }));
    await waitFor(() => expect(calls.bulk).toEqual([{ recordType: 'company', reason: 'domain' }]));
    expect(await screen.findByText('Duplicates merged')).toBeInTheDocument();
    expect(await screen.findByText('No duplicate companies found')).toBeInTheDocument();
  });

  it('lists contacts on their tab', async () => {
    const calls = mockDuplicates();
    const { user } = renderApp('/duplicates', { signedIn: true });
    await screen.findByRole('region', { name: /Same phone/ });
    await user.click(screen.getByRole('tab', { name: 'Contacts' }));
    await waitFor(() => expect(calls.queries.at(-1)).toContain('recordType=contact'));
  });

  it('shows a notice of possible duplicates on a company page', async () => {
    const company = makeCompany({ id: 'co-1', name: 'Acme Bath' });
    db.companies.push(company);
    const twins: PossibleDuplicate[] = [
      { ...record('co-2', 'Acme Bath LLC'), reasons: [{ reason: 'phone', label: 'Same phone' }, { reason: 'name', label: 'Same name and city' }] },
    ];
    server.use(http.get('/api/companies/co-1/duplicates', () => HttpResponse.json(twins)));
    renderApp('/companies/co-1', { signedIn: true });
    const notice = await screen.findByRole('complementary', { name: 'Possible duplicates' });
    expect(within(notice).getByText(/1 other company may be the same/)).toBeInTheDocument();
    expect(within(notice).getByRole('link', { name: 'Acme Bath LLC' })).toHaveAttribute('href', '/companies/co-2');
    expect(within(notice).getByText('(same phone, same name and city)')).toBeInTheDocument();
    expect(within(notice).getByRole('link', { name: 'Review and merge' })).toHaveAttribute('href', '/duplicates?type=company');
  });
});
