import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  NON_ADMIN_EMAIL,
  NON_ADMIN_PASSWORD,
} from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('admin login', () => {
  it('is a labelled form with email and password', async () => {
    renderApp('/admin/login');
    expect(await screen.findByRole('form', { name: 'Admin login' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Admin login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
  });

  it('requires both fields and sends nothing until they are filled', async () => {
    const requests = recordRequests();
    const { user } = renderApp('/admin/login');
    await screen.findByRole('form', { name: 'Admin login' });

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');

    await user.type(screen.getByLabelText('Email'), ADMIN_EMAIL);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();

    expect(requests.filter((r) => r.path === '/api/admin/login')).toHaveLength(0);
  });

  it('shows the server message on 401', async () => {
    const { user, router } = renderApp('/admin/login');
    await screen.findByRole('form', { name: 'Admin login' });
    await fillAndSubmit(user, ADMIN_EMAIL, 'wrong password');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login failed. Please check your credentials.',
    );
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it('shows the server message on 403', async () => {
    const { user } = renderApp('/admin/login');
    await screen.findByRole('form', { name: 'Admin login' });
    await fillAndSubmit(user, NON_ADMIN_EMAIL, NON_ADMIN_PASSWORD);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only authorized admin accounts can access this panel.',
    );
  });

  it("falls back to 'Login failed' when the server sends no message", async () => {
    server.use(http.post('/api/admin/login', () => new HttpResponse('upstream error', { status: 502 })));
    const { user } = renderApp('/admin/login');
    await screen.findByRole('form', { name: 'Admin login' });
    await fillAndSubmit(user, ADMIN_EMAIL, ADMIN_PASSWORD);

    expect(await screen.findByRole('alert')).toHaveTextContent(/^Login failed$/);
  });

  it('signs in, refreshes the admin user and lands on /admin', async () => {
    const requests = recordRequests();
    let loginBody: unknown;
    server.use(
      http.post('/api/admin/login', async ({ request }) => {
        loginBody = await request.clone().json();
        return undefined; // fall through to the default (stateful) handler
      }),
    );
    const { user, router } = renderApp('/admin/login');
    await screen.findByRole('form', { name: 'Admin login' });
    const adminUserCallsBefore = requests.filter((r) => r.path === '/api/admin/user').length;

    await fillAndSubmit(user, ADMIN_EMAIL, ADMIN_PASSWORD);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Business Intelligence Dashboard' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    expect(loginBody).toEqual({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(screen.getByText(ADMIN_EMAIL)).toBeInTheDocument();
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/admin/user').length).toBeGreaterThan(
        adminUserCallsBefore,
      ),
    );
  });

  it('sends a signed-in admin straight to the admin dashboard', async () => {
    const { router } = renderApp('/admin/login', { signedIn: true });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Business Intelligence Dashboard' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
  });
});
