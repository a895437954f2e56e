import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { makeCompany } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

import { radius } from './region-map';

describe('the dashboard map', () => {
  it('sizes each city point by its state’s real company count', async () => {
    for (let i = 0; i < 4; i++) makeCompany({ state: 'TX', status: i < 2 ? 'qualified' : 'discovered' });
    makeCompany({ state: 'AZ' });
    renderApp('/admin', { signedIn: true });
    const dallas = await screen.findByRole('button', { name: 'Dallas, TX: 4 companies' }, { timeout: 8000 });
    const phoenix = screen.getByRole('button', { name: 'Phoenix, AZ: 1 companies' });
    const jackson = screen.getByRole('button', { name: 'Jackson, MS: 0 companies' });
    const r = (el: HTMLElement) => Number(el.getAttribute('data-radius'));
    expect(r(dallas)).toBeGreaterThan(r(phoenix));
    expect(r(phoenix)).toBeGreaterThan(r(jackson));
    // Seven states drawn from the boundaries package.
    expect(screen.getByRole('group', { name: 'Companies by target city' }).querySelectorAll('path')).toHaveLength(7);
  }, 15_000);

  it('opens the Customer Report of a point, with its tiles and cards', async () => {
    makeCompany({ name: 'Lone Star Baths', state: 'TX', status: 'qualified', revenue: '4000000', employees: 30 });
    makeCompany({ name: 'Alamo Access', state: 'TX', status: 'interested', revenue: '6000000', employees: 50 });
    const { user } = renderApp('/admin', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Dallas, TX: 2 companies' }, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Customer Report: Dallas, TX' });
    await within(dialog).findByText('Lone Star Baths');
    expect(within(dialog).getByText('Qualified').parentElement).toHaveTextContent('2');
    expect(within(dialog).getByText('Avg Employees').parentElement).toHaveTextContent('40');
  }, 15_000);

  it('says when there is nothing, and offers Retry when the report fails', async () => {
    const { user } = renderApp('/admin', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Jackson, MS: 0 companies' }, { timeout: 8000 }));
    expect(await screen.findByText('No companies found')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    server.use(http.get('/api/companies/report', () => HttpResponse.json({ message: 'database busy' }, { status: 503 })));
    await user.click(screen.getByRole('button', { name: 'Phoenix, AZ: 0 companies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Customer Report: Phoenix, AZ' });
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to load customer data'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('database busy');
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  }, 15_000);

  it('grows point area with the count', () => {
    expect(radius(0, 100)).toBe(5);
    expect(radius(100, 100)).toBe(24);
    expect(radius(25, 100)).toBeCloseTo(14.5);
  });
});
