import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { seriousViolations } from '@/testing/axe';
import { db, makeCompany, makeContact, makeJob } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';
import type { ScoreFactor } from '@/types/api';

const factors: ScoreFactor[] = [
  { factor: 'revenue', label: 'Revenue band', value: '$12.0M ($10M–25M)', points: 26, max: 30, reason: 'Annual revenue $12.0M meets the $5M target' },
  { factor: 'services', label: 'Services on the website', value: 'Walk-in tubs', points: 15, max: 15, reason: 'Its website offers accessibility products' },
  { factor: 'engagement', label: 'Engagement', value: 'none', points: 0, max: 15, reason: 'No engagement yet' },
];

describe('why this score', () => {
  it('lists each factor of a company with its value and points of its weight, and what the website showed', async () => {
    const company = makeCompany({
      name: 'Lone Star Access Baths',
      score: 41,
      website: 'https://lonestar.example',
      enrichment: {
        scoreFactors: factors,
        enrichedAt: '2026-01-15T09:00:00Z',
        websiteFacts: {
          pages: ['https://lonestar.example/', 'https://lonestar.example/team'],
          emails: ['info@lonestar.example'],
          phones: ['(214) 555-0142'],
          socials: { facebook: 'https://www.facebook.com/lonestar' },
          people: [{ firstName: 'Maria', lastName: 'Garcia', title: 'Owner', email: null }],
          services: ['walk_in_tubs', 'bath'],
          truncated: false,
          skipped: [],
        },
      },
    });
    const { container } = renderApp(`/companies/${company.id}`, { signedIn: true });
    const panel = await screen.findByRole('region', { name: 'Why this score' });
    const rows = within(panel).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Revenue band$12.0M ($10M–25M)Annual revenue $12.0M meets the $5M target26 of 30',
      'Services on the websiteWalk-in tubsIts website offers accessibility products15 of 15',
      'EngagementnoneNo engagement yet0 of 15',
    ]);
    expect(within(panel).getByText('41')).toBeInTheDocument();
    const site = screen.getByRole('region', { name: 'From the website' });
    expect(site).toHaveTextContent('Walk-in tubs, Bathroom remodeling');
    expect(site).toHaveTextContent('(214) 555-0142');
    expect(within(site).getByRole('link', { name: 'Facebook' })).toHaveAttribute('href', 'https://www.facebook.com/lonestar');
    expect(site).toHaveTextContent('Maria Garcia, Owner');
    expect(await seriousViolations(container)).toEqual([]);
  });

  it('shows a contact’s factors, and says when the scorer has not scored it yet', async () => {
    const scored = makeContact({ firstName: 'Ana', lastName: 'Lopez', score: 62, scoreFactors: factors });
    const view = renderApp(`/contacts/${scored.id}`, { signedIn: true });
    const panel = await screen.findByRole('region', { name: 'Why this score' });
    expect(within(panel).getAllByRole('row')).toHaveLength(4);
    view.unmount();
    const manual = makeContact({ firstName: 'Bo', lastName: 'Hand', score: 50, scoreFactors: null });
    renderApp(`/contacts/${manual.id}`, { signedIn: true });
    const empty = await screen.findByRole('region', { name: 'Why this score' });
    expect(empty).toHaveTextContent('Not scored by the scorer yet');
  });
});

describe('enrich from website', () => {
  it('starts the job, follows it and says what the website gave', async () => {
    const company = makeCompany({ name: 'Lone Star Access Baths', website: 'https://lonestar.example' });
    const job = makeJob({ kind: 'company_enrich', status: 'running' });
    db.jobs.push(job);
    let asked = 0;
    server.use(
      http.post('/api/companies/:id/enrich', ({ params }) => {
        asked += 1;
        expect(params.id).toBe(company.id);
        return HttpResponse.json({ jobId: job.id, status: 'queued' }, { status: 202 });
      }),
    );
    const { user } = renderApp(`/companies/${company.id}`, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Enrich from website' }));
    expect(await screen.findByRole('button', { name: 'Reading website…' })).toBeDisabled();
    Object.assign(job, { status: 'succeeded', result: { message: 'Website read (3 pages): 2 emails' } });
    expect(await screen.findByText('Website read (3 pages): 2 emails', {}, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Enrich from website' })).toBeEnabled());
    expect(asked).toBe(1);
  });

  it('shows the server’s message when the company cannot be enriched', async () => {
    const company = makeCompany({ name: 'Quiet Co', website: 'quiet.example' });
    server.use(
      http.post('/api/companies/:id/enrich', () =>
        HttpResponse.json({ message: 'The company has no website to read. Add its website first.' }, { status: 422 }),
      ),
    );
    const { user } = renderApp(`/companies/${company.id}`, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Enrich from website' }));
    expect(await screen.findByText('The company has no website to read. Add its website first.')).toBeInTheDocument();
  });
});
