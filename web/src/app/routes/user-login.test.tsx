import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { NON_ADMIN_EMAIL, NON_ADMIN_PASSWORD, db } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const DASHBOARD = 'Business Intelligence Dashboard';

async function signIn(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  const form = await screen.findByRole('form', { name: 'Sign in' });
  await user.type(within(form).getByLabelText('Email'), email);
  await user.type(within(form).getByLabelText('Password'), password);
  await user.click(within(form).getByRole('button', { name: 'Sign in' }));
}

describe('user sign-in (/login)', () => {
  it('is a labelled form with email and password, and points admins to their login', async () => {
    renderApp('/login');
    const form = await screen.findByRole('form', { name: 'Sign in' });
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(within(form).getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(within(form).getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Admin login' })).toHaveAttribute('href', '/admin/login');
  });

  it('signs in through POST /api/login and lands on the dashboard with the user screens only', async () => {
    let body: unknown;
    server.use(
      http.post('/api/login', async ({ request }) => {
        body = await request.clone().json();
        return undefined;
      }),
    );
    const { user, router } = renderApp('/login');
    await signIn(user, NON_ADMIN_EMAIL, NON_ADMIN_PASSWORD);

    expect(await screen.findByRole('heading', { level: 1, name: DASHBOARD })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(body).toEqual({ email: NON_ADMIN_EMAIL, password: NON_ADMIN_PASSWORD });
    const banner = screen.getByRole('banner');
    expect(within(banner).getByText('Sam Sales')).toBeInTheDocument();
    expect(within(banner).queryByText('Administrator')).not.toBeInTheDocument();
    // Seed 000 §2.2: an ordinary user signs out through the server's page.
    expect(within(banner).getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/api/logout');

    const nav = screen.getByRole('navigation', { name: 'Main' });
    const groups = within(nav)
      .getAllByRole('list')
      .map((list) => document.getElementById(list.getAttribute('aria-labelledby') ?? '')?.textContent);
    expect(groups).toEqual(['Analytics', 'Customer Management', 'Campaign Tools', 'Business Tools']);
    const analytics = within(nav).getByRole('list', { name: 'Analytics' });
    expect(within(analytics).getAllByRole('link').map((m) => m.textContent)).toEqual(['Dashboard', 'Discovery', 'Pipeline']);
  });

  it("shows the server's message when the sign-in is refused", async () => {
    const { user, router } = renderApp('/login');
    await signIn(user, NON_ADMIN_EMAIL, 'wrong password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed. Please check your credentials.');

    server.use(
      http.post('/api/login', () =>
        HttpResponse.json({ message: 'This account is disabled. Ask an administrator to enable it.' }, { status: 403 }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is disabled.');
    expect(router.state.location.pathname).toBe('/login');
    expect(db.signedIn).toBe(false);
  });

  it('sends a signed-out visitor to /login and back to the page they asked for', async () => {
    const { user, router } = renderApp('/contacts');
    await signIn(user, NON_ADMIN_EMAIL, NON_ADMIN_PASSWORD);
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact Intelligence' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/contacts');
  });

  it('sends a signed-out visitor of an /admin page to the admin login', async () => {
    const { router } = renderApp('/admin/contacts');
    expect(await screen.findByRole('form', { name: 'Admin login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it('sends a signed-in user from /login to the dashboard', async () => {
    const { router } = renderApp('/login', { asUser: true });
    expect(await screen.findByRole('heading', { level: 1, name: DASHBOARD })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/ops', '/users', '/admin/users', '/admin/contacts'])(
    "shows 'Admins only' to an ordinary session at %s and calls no admin route",
    async (path) => {
      const requests = recordRequests();
      renderApp(path, { asUser: true });
      expect(await screen.findByRole('heading', { level: 1, name: 'Admins only' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to the admin login' })).toHaveAttribute('href', '/admin/login');
      expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', '/');
      await waitFor(() => expect(requests.some((r) => r.path === '/api/auth/user')).toBe(true));
      expect(requests.filter((r) => r.path.startsWith('/api/ops') || r.path.startsWith('/api/admin/users'))).toEqual([]);
    },
  );
});
