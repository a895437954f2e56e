import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { ADMIN_EMAIL, db } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const DASHBOARD = 'Business Intelligence Dashboard';

/** The sidebar's navigation (always present; CSS hides it below md). */
const mainNav = () => screen.findByRole('navigation', { name: 'Main' });

/** The names of the navigation's groups, in order. */
const groupNames = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('list')
    .map((list) => document.getElementById(list.getAttribute('aria-labelledby') ?? '')?.textContent);

describe('app shell and routing', () => {
  it('shows the app name, the signed-in email labelled Administrator and the navigation groups in the sidebar', async () => {
    renderApp('/admin', { signedIn: true });
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByText('Prospector')).toBeInTheDocument();
    expect(await within(banner).findByText(ADMIN_EMAIL)).toBeInTheDocument();
    expect(within(banner).getByText('Administrator')).toBeInTheDocument();
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    const nav = within(sidebar).getByRole('navigation', { name: 'Main' });
    expect(groupNames(nav)).toEqual(['Analytics', 'Customer Management', 'Campaign Tools', 'Business Tools', 'Admin']);
    expect(within(within(nav).getByRole('list', { name: 'Admin' })).getByRole('link', { name: 'Users' })).toHaveAttribute(
      'href',
      '/admin/users',
    );
    // Each screen has its icon next to its name.
    expect(within(nav).getByRole('link', { name: 'Leads' }).querySelector('svg')).not.toBeNull();
  });

  it('prefixes every link with /admin in admin mode; the dashboard link is /admin', async () => {
    renderApp('/admin/contacts', { signedIn: true });
    const nav = await mainNav();
    const analytics = within(nav).getByRole('list', { name: 'Analytics' });
    expect(within(analytics).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin');
    expect(within(analytics).getByRole('link', { name: 'Pipeline' })).toHaveAttribute('href', '/admin/pipeline');
    expect(within(analytics).getByRole('link', { name: 'Ops' })).toHaveAttribute('href', '/admin/ops');
    expect(within(analytics).getByRole('link', { name: 'Discovery' })).toHaveAttribute('href', '/admin/discovery');

    const business = within(nav).getByRole('list', { name: 'Business Tools' });
    expect(within(business).getAllByRole('link').map((m) => m.getAttribute('href'))).toEqual([
      '/admin/invoicing',
      '/admin/invoice-history',
    ]);

    const customers = within(nav).getByRole('list', { name: 'Customer Management' });
    expect(within(customers).getByRole('link', { name: 'All Contacts' })).toHaveAttribute('aria-current', 'page');
    expect(within(customers).getByRole('link', { name: 'Leads' })).toHaveAttribute('href', '/admin/leads');
    expect(within(customers).getByRole('link', { name: 'Leads' })).not.toHaveAttribute('aria-current');
  });

  it('keeps root paths outside admin mode', async () => {
    renderApp('/meetings', { signedIn: true });
    const campaign = within(await mainNav()).getByRole('list', { name: 'Campaign Tools' });
    expect(within(campaign).getByRole('link', { name: 'Meetings' })).toHaveAttribute('href', '/meetings');
    expect(within(campaign).getAllByRole('link').map((m) => m.getAttribute('href'))).toEqual([
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

  it('navigates from the sidebar with the keyboard', async () => {
    const { user, router } = renderApp('/admin', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: DASHBOARD });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    within(nav).getByRole('link', { name: 'Email Campaigns' }).focus();
    await user.tab();
    expect(within(nav).getByRole('link', { name: 'Email Sequences' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Sequences' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/email-sequences');
    expect(within(nav).getByRole('link', { name: 'Email Sequences' })).toHaveAttribute('aria-current', 'page');
  });

  it('collapses the sidebar to an icon rail and remembers it', async () => {
    const first = renderApp('/contacts', { signedIn: true });
    const collapse = await screen.findByRole('button', { name: 'Collapse sidebar' });
    expect(collapse).toHaveAttribute('aria-expanded', 'true');
    await first.user.click(collapse);
    const expand = screen.getByRole('button', { name: 'Expand sidebar' });
    expect(expand).toHaveAttribute('aria-expanded', 'false');
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    // The names stay for screen readers, and as tooltips.
    const leads = within(sidebar).getByRole('link', { name: 'Leads' });
    expect(leads).toHaveAttribute('title', 'Leads');
    expect(within(leads).getByText('Leads')).toHaveClass('sr-only');

    // Opened again (a reload), the app keeps the rail.
    first.unmount();
    const second = renderApp('/contacts', { signedIn: true });
    const again = await screen.findByRole('button', { name: 'Expand sidebar' });
    await second.user.click(again);
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toHaveAttribute('data-collapsed', 'false');
    expect(localStorage.getItem('prospector.sidebar.collapsed')).toBe('false');
  });

  it('opens the navigation in a drawer on small screens, traps focus and closes on navigation', async () => {
    const { user, router } = renderApp('/', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: DASHBOARD });
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const drawer = screen.getByRole('dialog', { name: 'Prospector' });
    const mobile = within(drawer).getByRole('navigation', { name: 'Mobile' });
    expect(within(mobile).getByText('Customer Management')).toBeInTheDocument();
    // Focus stays inside the drawer.
    expect(drawer).toContainElement(document.activeElement as HTMLElement);
    for (let i = 0; i < 30; i += 1) await user.tab();
    expect(drawer).toContainElement(document.activeElement as HTMLElement);

    await user.click(within(mobile).getByRole('link', { name: 'Leads' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lead Pipeline' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/leads');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the drawer with Escape and gives focus back to Menu', async () => {
    const { user } = renderApp('/', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: DASHBOARD });
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await user.click(toggle);
    expect(screen.getByRole('navigation', { name: 'Mobile' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
  });

  it('hides the admin screens from an ordinary session, in the sidebar and the drawer', async () => {
    const { user } = renderApp('/', { asUser: true });
    const nav = await mainNav();
    expect(groupNames(nav)).toEqual(['Analytics', 'Customer Management', 'Campaign Tools', 'Business Tools']);
    expect(within(nav).queryByRole('link', { name: 'Ops' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Pipeline' })).toHaveAttribute('href', '/pipeline');
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const mobile = screen.getByRole('navigation', { name: 'Mobile' });
    expect(within(mobile).queryByRole('link', { name: 'Ops' })).not.toBeInTheDocument();
    expect(within(mobile).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('keeps the skip link to the main content', async () => {
    renderApp('/contacts', { signedIn: true });
    expect(await screen.findByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
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
