import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { ADMIN_EMAIL, db } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const DASHBOARD = 'Business Intelligence Dashboard';

async function openGroup(user: ReturnType<typeof renderApp>['user'], label: string) {
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  await user.click(within(nav).getByRole('button', { name: new RegExp(label) }));
  return screen.findByRole('menu');
}

describe('app shell and routing', () => {
  it('shows the app name, the signed-in email labelled Administrator and the navigation groups', async () => {
    renderApp('/admin', { signedIn: true });
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByText('Prospector')).toBeInTheDocument();
    expect(await within(banner).findByText(ADMIN_EMAIL)).toBeInTheDocument();
    expect(within(banner).getByText('Administrator')).toBeInTheDocument();
    const nav = within(banner).getByRole('navigation', { name: 'Main' });
    const groups = within(nav).getAllByRole('button').map((b) => b.textContent.replace('▾', '').trim());
    expect(groups).toEqual(['Analytics', 'Customer Management', 'Campaign Tools', 'Business Tools', 'Admin']);
  });

  it('prefixes every link with /admin in admin mode; the dashboard link is /admin', async () => {
    const { user } = renderApp('/admin/contacts', { signedIn: true });
    const analytics = await openGroup(user, 'Analytics');
    expect(within(analytics).getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/admin');
    expect(within(analytics).getByRole('menuitem', { name: 'Pipeline' })).toHaveAttribute('href', '/admin/pipeline');
    expect(within(analytics).getByRole('menuitem', { name: 'Ops' })).toHaveAttribute('href', '/admin/ops');
    expect(within(analytics).getByRole('menuitem', { name: 'Discovery' })).toHaveAttribute('href', '/admin/discovery');

    await user.keyboard('{Escape}');
    const business = await openGroup(user, 'Business Tools');
    expect(within(business).getAllByRole('menuitem').map((m) => m.getAttribute('href'))).toEqual([
      '/admin/invoicing',
      '/admin/invoice-history',
    ]);

    await user.keyboard('{Escape}');
    const customers = await openGroup(user, 'Customer Management');
    expect(within(customers).getByRole('menuitem', { name: 'All Contacts' })).toHaveAttribute('aria-current', 'page');
    expect(within(customers).getByRole('menuitem', { name: 'Leads' })).toHaveAttribute('href', '/admin/leads');
  });

  it('keeps root paths outside admin mode', async () => {
    const { user } = renderApp('/meetings', { signedIn: true });
    const campaign = await openGroup(user, 'Campaign Tools');
    expect(within(campaign).getByRole('menuitem', { name: 'Meetings' })).toHaveAttribute('href', '/meetings');
    expect(within(campaign).getAllByRole('menuitem').map((m) => m.getAttribute('href'))).toEqual([
      '/campaigns',
      '/email-campaigns',
      '/email-sequences',
      '/meetings',
      '/voice-agents',
      '/business-development',
      '/ai-management',
      '/ai-features',
    ]);
  });

  it('navigates through a group menu with the keyboard', async () => {
    const { user, router } = renderApp('/admin', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: DASHBOARD });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    within(nav).getByRole('button', { name: /Campaign Tools/ }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Sequences' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/email-sequences');
  });

  it('mirrors the groups in the mobile menu', async () => {
    const { user, router } = renderApp('/', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: DASHBOARD });
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const mobile = screen.getByRole('navigation', { name: 'Mobile' });
    expect(within(mobile).getByText('Customer Management')).toBeInTheDocument();
    await user.click(within(mobile).getByRole('link', { name: 'Leads' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lead Pipeline' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/leads');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
  });

  it.each([
    ['/', DASHBOARD],
    ['/admin', DASHBOARD],
    ['/admin/dashboard', DASHBOARD],
    ['/contacts', 'Contact Intelligence'],
    ['/admin/contacts', 'Contact Intelligence'],
    ['/leads', 'Lead Pipeline'],
    ['/admin/customers', 'Customers'],
    ['/companies', 'Company Prospects'],
    ['/admin/pipeline', 'Sales Pipeline'],
    ['/meetings', 'Meetings'],
    ['/admin/ops', 'Ops'],
  ])('serves %s to a signed-in admin', async (path, heading) => {
    renderApp(path, { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('logs out through POST /api/admin/logout and returns to the login page', async () => {
    const requests = recordRequests();
    const { user, router } = renderApp('/admin/ops', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('form', { name: 'Admin login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(requests).toContainEqual({ method: 'POST', path: '/api/admin/logout', search: '' });
    expect(db.signedIn).toBe(false);
  });

  it("shows 'Logout failed' when the logout call fails", async () => {
    server.use(http.post('/api/admin/logout', () => new HttpResponse(null, { status: 500 })));
    const { user, router } = renderApp('/admin/ops', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Logout failed');
    expect(router.state.location.pathname).toBe('/admin/ops');
  });

  it('shows a 404 page for unknown paths', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
  });
});

describe('landing page', () => {
  it('is shown at / when signed out, with both buttons starting the login', async () => {
    renderApp('/');
    expect(await screen.findByText('Turn More Prospects Into Paying Customers')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Access Platform' })).toHaveAttribute('href', '/api/login');
    expect(screen.getByRole('link', { name: 'Start Growing Your Business Today' })).toHaveAttribute('href', '/api/login');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the 'Authentication Required' toast for ?unauthorized", async () => {
    renderApp('/?unauthorized=true');
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Authentication Required');
    expect(toast).toHaveTextContent('Please log in to access the CRM platform.');
  });

  it('keeps one FAQ item open at a time and closes the open one on click', async () => {
    const { user } = renderApp('/');
    const first = await screen.findByRole('button', { name: /How quickly will I see results/ });
    const second = screen.getByRole('button', { name: /How much time does it save/ });
    await user.click(first);
    expect(first).toHaveAttribute('aria-expanded', 'true');
    await user.click(second);
    expect(first).toHaveAttribute('aria-expanded', 'false');
    expect(second).toHaveAttribute('aria-expanded', 'true');
    await user.click(second);
    expect(second).toHaveAttribute('aria-expanded', 'false');
  });

  it('sends signed-out visitors of admin pages to the admin login', async () => {
    const { router } = renderApp('/admin/contacts');
    expect(await screen.findByRole('form', { name: 'Admin login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
  });
});
