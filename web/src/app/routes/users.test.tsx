import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { adminRow, makeManagedUser } from '@/testing/mocks/users-handlers';
import { renderApp } from '@/testing/test-utils';

function seed() {
  const rep = makeManagedUser({ email: 'rep@example.com', firstName: 'Rita', lastName: 'Rep' });
  db.users.push(adminRow(), rep);
  return rep;
}

const row = (email: string) => {
  const cell = screen.getByRole('cell', { name: email });
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${email}`);
  return within(tr);
};

/** Captures the JSON bodies sent to `method path`. */
function captureBodies(method: 'post' | 'patch', path: string) {
  const bodies: unknown[] = [];
  server.use(
    http[method](path, async ({ request }) => {
      bodies.push(await request.clone().json());
      return undefined;
    }),
  );
  return bodies;
}

describe('Users screen', () => {
  it('is reached from the Admin group of the sidebar and lists each account with its role, status and a human date', async () => {
    seed();
    const { user, router } = renderApp('/admin', { signedIn: true });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(within(nav).getByRole('list', { name: 'Admin' })).getByRole('link', { name: 'Users' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/users');
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Email',
      'Role',
      'Status',
      'Created',
      'Actions',
    ]);
    const rep = row('rep@example.com');
    expect(rep.getByText('Rita Rep')).toBeInTheDocument();
    expect(rep.getByText('User')).toBeInTheDocument();
    expect(rep.getByText('Active')).toBeInTheDocument();
    const created = rep.getByText((_, el) => el?.tagName === 'TIME');
    expect(created).toHaveAttribute('dateTime', '2026-01-15T10:00:00Z');
    expect(created.textContent).not.toContain('2026-01-15T');
    expect(created.textContent).toMatch(/Jan 15/);
  });

  it('adds a user: checks the form first, then posts it and lists the new account', async () => {
    seed();
    const bodies = captureBodies('post', '/api/admin/users');
    const { user } = renderApp('/admin/users', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });

    await user.type(within(dialog).getByLabelText('Email'), 'nina@example');
    await user.type(within(dialog).getByLabelText('Password'), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(await within(dialog).findByText('Enter a valid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.type(within(dialog).getByLabelText('Email'), '.com');
    await user.type(within(dialog).getByLabelText('First name'), 'Nina');
    await user.type(within(dialog).getByLabelText('Last name'), 'New');
    await user.type(within(dialog).getByLabelText('Password'), ' enough');
    await chooseOption(user, within(dialog).getByLabelText('Role'), 'Admin');
    await user.click(within(dialog).getByRole('button', { name: 'Add user' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([
      { email: 'nina@example.com', firstName: 'Nina', lastName: 'New', password: 'short enough', role: 'admin' },
    ]);
    expect(await screen.findByRole('cell', { name: 'nina@example.com' })).toBeInTheDocument();
    expect(row('nina@example.com').getByText('Admin')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('User added');
  });

  it("keeps the dialog open with the server's message when the email is taken", async () => {
    seed();
    const { user } = renderApp('/admin/users', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    await user.type(within(dialog).getByLabelText('Email'), 'rep@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'long enough');
    await user.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A user with this email already exists');
  });

  it('disables and re-enables a user, and changes their role', async () => {
    const rep = seed();
    const bodies = captureBodies('patch', `/api/admin/users/${rep.id}`);
    const { user } = renderApp('/admin/users', { signedIn: true });
    await screen.findByRole('cell', { name: 'rep@example.com' });

    await user.click(row('rep@example.com').getByRole('button', { name: 'Disable rep@example.com' }));
    expect(await row('rep@example.com').findByText('Disabled')).toBeInTheDocument();
    await user.click(row('rep@example.com').getByRole('button', { name: 'Enable rep@example.com' }));
    expect(await row('rep@example.com').findByText('Active')).toBeInTheDocument();
    await user.click(row('rep@example.com').getByRole('button', { name: 'Make admin rep@example.com' }));
    expect(await row('rep@example.com').findByRole('button', { name: 'Make user rep@example.com' })).toBeInTheDocument();

    expect(bodies).toEqual([{ disabled: true }, { disabled: false }, { role: 'admin' }]);
  });

  it("shows the server's refusal of a change", async () => {
    const rep = seed();
    server.use(
      http.patch(`/api/admin/users/${rep.id}`, () =>
        HttpResponse.json({ message: 'The database is busy. Try again in a moment.' }, { status: 503 }),
      ),
    );
    const { user } = renderApp('/admin/users', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Disable rep@example.com' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is busy. Try again in a moment.');
    expect(row('rep@example.com').getByText('Active')).toBeInTheDocument();
  });

  it('does not offer an admin to disable or demote themselves', async () => {
    seed();
    renderApp('/admin/users', { signedIn: true });
    await screen.findByRole('cell', { name: 'admin@example.com' });
    const me = row('admin@example.com');
    expect(me.getByText('(you)')).toBeInTheDocument();
    expect(me.getByRole('button', { name: 'Disable admin@example.com' })).toBeDisabled();
    expect(me.getByRole('button', { name: 'Make user admin@example.com' })).toBeDisabled();
    expect(me.getByRole('button', { name: 'Reset password for admin@example.com' })).toBeEnabled();
  });

  it("resets a user's password through its dialog", async () => {
    const rep = seed();
    const bodies = captureBodies('post', `/api/admin/users/${rep.id}/password`);
    const { user } = renderApp('/admin/users', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Reset password for rep@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset password for rep@example.com' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    expect(await within(dialog).findByText('Password is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('New password'), 'a new secret');
    await user.click(within(dialog).getByRole('button', { name: 'Reset password' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ password: 'a new secret' }]);
    expect(screen.getByRole('status')).toHaveTextContent('Password reset');
  });
});
