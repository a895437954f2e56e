import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { ADMIN_EMAIL, db } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('app shell and routing', () => {
  it('shows the app name, a Jobs link and the signed-in email', async () => {
    renderApp('/admin/jobs', { signedIn: true });
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByText('Prospector')).toBeInTheDocument();
    expect(await within(banner).findByText(ADMIN_EMAIL)).toBeInTheDocument();
    const nav = within(banner).getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Jobs' })).toHaveAttribute('href', '/admin/jobs');
    expect(within(nav).getByRole('link', { name: 'Jobs' })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps root paths outside admin mode', async () => {
    renderApp('/jobs', { signedIn: true });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Jobs' })).toHaveAttribute('href', '/jobs');
  });

  it('logs out through POST /api/admin/logout and returns to the login page', async () => {
    const requests = recordRequests();
    const { user, router } = renderApp('/admin/jobs', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('form', { name: 'Admin login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(requests).toContainEqual({ method: 'POST', path: '/api/admin/logout', search: '' });
    expect(db.signedIn).toBe(false);
  });

  it("shows 'Logout failed' when the logout call fails", async () => {
    server.use(http.post('/api/admin/logout', () => new HttpResponse(null, { status: 500 })));
    const { user, router } = renderApp('/admin/jobs', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Logout failed');
    expect(router.state.location.pathname).toBe('/admin/jobs');
  });

  it('sends / to the login page when signed out', async () => {
    const { router } = renderApp('/');
    expect(await screen.findByRole('form', { name: 'Admin login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it('sends / and /admin to the jobs page when signed in', async () => {
    const first = renderApp('/', { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Jobs' })).toBeInTheDocument();
    expect(first.router.state.location.pathname).toBe('/admin/jobs');
    first.unmount();

    const second = renderApp('/admin', { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Jobs' })).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/admin/jobs');
  });

  it('shows a 404 page for unknown paths', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
  });
});
