import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import type { DiscoverySource } from '@/features/discovery/api/get-sources';
import { chooseOption } from '@/testing/select';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { DiscoveryForm } from './discovery-form';
import type { ScanResult } from './scan-progress';
import { ScanResults } from './scan-results';

const OSM_NOTICE =
  '© OpenStreetMap contributors. Data available under the Open Database License (ODbL): https://www.openstreetmap.org/copyright';

const RESULT: ScanResult = {
  companies: [
    { id: 'c1', name: 'Lone Star Bath & Tile', city: 'Dallas', state: 'TX', score: 62, isNew: true, sources: ['osm', 'google_places'] },
    { id: 'c2', name: 'Prairie Demo Baths', city: 'Austin', state: 'TX', score: 48, isNew: false, sources: ['catalog'] },
  ],
  contacts: [],
  marketIntelligence: null,
  territoryInsights: {
    cities: [
      { city: 'Dallas', state: 'TX', companies: 1, averageScore: 62, highQualityLeads: 0 },
      { city: 'Austin', state: 'TX', companies: 1, averageScore: 48, highQualityLeads: 0 },
    ],
    marketSize: {
      available: true,
      source: 'https://www2.census.gov/programs-surveys/cbp/datasets/2022/cbp22co.zip',
      year: '2022',
      naics: '236118',
      states: [{ state: 'TX', establishments: 95, found: 2 }],
      topCounties: [{ state: 'TX', countyFips: '48113', county: 'Dallas County', establishments: 40 }],
    },
  },
  sources: [
    { source: 'osm', label: 'OpenStreetMap', verified: true, attribution: OSM_NOTICE, found: 1, new: 1, updated: 0, elapsedMs: 420, error: null },
    {
      source: 'google_places',
      label: 'Google Places',
      verified: true,
      attribution: 'Place data from Google Maps.',
      found: 1,
      new: 0,
      updated: 1,
      elapsedMs: 1500,
      error: 'Google Places rate limited the scan: HTTP 429',
    },
  ],
  budgetExhausted: false,
};

describe('discovery sources', () => {
  it('labels each company by its sources, demo data included, and carries the ODbL notice', () => {
    db.signedIn = true;
    renderWithProviders(
      <MemoryRouter>
        <ScanResults result={RESULT} />
      </MemoryRouter>,
    );
    const lone = screen.getByRole('rowheader', { name: /Lone Star Bath & Tile/ });
    expect(lone).toHaveTextContent('OpenStreetMap');
    expect(lone).toHaveTextContent('Google Places');
    expect(screen.getByRole('rowheader', { name: /Prairie Demo Baths/ })).toHaveTextContent('Demo data');
    const sources = screen.getByRole('region', { name: 'Sources searched' });
    expect(sources).toHaveTextContent('OpenStreetMap1 found (1 new, 0 updated) in 420 ms');
    expect(sources).toHaveTextContent('rate limited the scan');
    expect(within(sources).getByRole('link', { name: 'www.openstreetmap.org/copyright' })).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/copyright',
    );
    const territory = screen.getByRole('region', { name: 'Territory insight' });
    expect(territory).toHaveTextContent('Dallas, TX');
    expect(within(territory).getByRole('row', { name: 'TX 95 2' })).toBeInTheDocument();
    expect(territory).toHaveTextContent('Largest counties: Dallas County, TX (40)');
    expect(territory).toHaveTextContent('County Business Patterns 2022');
  });

  it('says when no Census figures are loaded instead of showing any', () => {
    db.signedIn = true;
    const insight = {
      cities: [],
      marketSize: { available: false as const, source: null, year: null, note: 'No figures yet.' },
    };
    renderWithProviders(
      <MemoryRouter>
        <ScanResults result={{ ...RESULT, territoryInsights: insight }} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('region', { name: 'Territory insight' })).toHaveTextContent(
      'No Census County Business Patterns figures are loaded on this server: No figures yet.',
    );
  });

  it('offers the configured sources and sends the ticked ones with the search mode', async () => {
    db.signedIn = true;
    server.use(
      http.get('/api/discovery/sources', () =>
        HttpResponse.json([
          { source: 'osm', label: 'OpenStreetMap', default: true, verified: true, attribution: OSM_NOTICE },
          { source: 'catalog', label: 'Demo data', default: false, verified: false, attribution: 'Demo data' },
        ] satisfies DiscoverySource[]),
      ),
    );
    const onStart = vi.fn();
    const { user } = renderWithProviders(<DiscoveryForm pending={false} result={null} onStart={onStart} />);
    const group = screen.getByRole('group', { name: 'Sources' });
    await user.click(await within(group).findByRole('checkbox', { name: 'Demo data' }));
    expect(within(group).getByRole('checkbox', { name: /^OpenStreetMap\s*\(default\)$/ })).not.toBeChecked();
    await user.type(screen.getByLabelText('Company name (optional)'), 'Lone Star');
    await chooseOption(user, screen.getByLabelText('Search by'), 'Region search');
    await user.click(screen.getByRole('button', { name: 'Start Discovery' }));
    expect(onStart).toHaveBeenCalledWith(expect.objectContaining({ companyName: 'Lone Star', discoverySource: ['region_search', 'catalog'] }));
  });
});
