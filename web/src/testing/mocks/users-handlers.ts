import { http, HttpResponse } from 'msw';

import type { ManagedUser } from '@/features/users/api/types';

import { notSignedIn } from './authed';
import { ADMIN_EMAIL, NON_ADMIN_EMAIL, NON_ADMIN_PASSWORD, adminUser, db, newId, ordinaryUser } from './db';

const forbidden = () => HttpResponse.json({ message: 'Administrator access required' }, { status: 403 });

/** An admin route: 401 signed out, 403 in an ordinary session. */
const adminOnly =
  <A extends unknown[]>(resolver: (...args: A) => Response | Promise<Response>) =>
  (...args: A) => {
    if (!db.signedIn) return notSignedIn();
    if (db.userSession) return forbidden();
    return resolver(...args);
  };

export function makeManagedUser(overrides: Partial<ManagedUser> = {}): ManagedUser {
  return {
    id: newId('user'),
    email: 'rep@example.com',
    firstName: 'Rita',
    lastName: 'Rep',
    role: 'user',
    adminByConfig: false,
    disabled: false,
    disabledAt: null,
    createdAt: '2026-01-15T10:00:00Z',
    ...overrides,
  };
}

/** The admin's own row, as the server lists it. */
export const adminRow = (): ManagedUser =>
  makeManagedUser({ id: adminUser.id, email: ADMIN_EMAIL, firstName: 'Ada', lastName: 'Admin', role: 'admin' });

type NewUserBody = { email?: string; firstName?: string | null; lastName?: string | null; password?: string; role?: 'user' | 'admin' };
type ChangeBody = { role?: 'user' | 'admin'; disabled?: boolean; firstName?: string | null; lastName?: string | null };

/** Ordinary sign-in (POST /api/login) and the Users screen's calls, keeping the server's rules. */
export const usersHandlers = [
  http.post('/api/login', async ({ request }) => {
    const body = (await request.json()) as { email?: string; password?: string };
    if (body.email === NON_ADMIN_EMAIL && body.password === NON_ADMIN_PASSWORD) {
      db.signedIn = true;
      db.userSession = true;
      return HttpResponse.json(ordinaryUser);
    }
    return HttpResponse.json({ message: 'Login failed. Please check your credentials.' }, { status: 401 });
  }),

  http.get('/api/admin/users', adminOnly(() => HttpResponse.json(db.users))),

  http.post(
    '/api/admin/users',
    adminOnly(async ({ request }: { request: Request }) => {
      const body = (await request.json()) as NewUserBody;
      const email = (body.email ?? '').trim().toLowerCase();
      if (db.users.some((u) => u.email === email)) {
        return HttpResponse.json({ message: 'A user with this email already exists' }, { status: 409 });
      }
      const user = makeManagedUser({
        email,
        firstName: body.firstName ?? null,
        lastName: body.lastName ?? null,
        role: body.role ?? 'user',
      });
      db.users.push(user);
      return HttpResponse.json(user, { status: 201 });
    }),
  ),

  http.patch(
    '/api/admin/users/:id',
    adminOnly(async ({ request, params }: { request: Request; params: Record<string, string | readonly string[] | undefined> }) => {
      const body = (await request.json()) as ChangeBody;
      const user = db.users.find((u) => u.id === params.id);
      if (!user) return HttpResponse.json({ message: 'User not found' }, { status: 404 });
      if (user.id === adminUser.id && body.disabled) {
        return HttpResponse.json({ message: 'You cannot disable your own account' }, { status: 409 });
      }
      if (body.role) user.role = body.role;
      if (body.disabled !== undefined) {
        user.disabled = body.disabled;
        user.disabledAt = body.disabled ? '2026-01-15T11:00:00Z' : null;
      }
      return HttpResponse.json(user);
    }),
  ),

  http.post(
    '/api/admin/users/:id/password',
    adminOnly(({ params }: { params: Record<string, string | readonly string[] | undefined> }) =>
      db.users.some((u) => u.id === params.id)
        ? new HttpResponse(null, { status: 204 })
        : HttpResponse.json({ message: 'User not found' }, { status: 404 }),
    ),
  ),
];
