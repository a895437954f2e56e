import type { ReactNode } from 'react';

import { Link, Navigate, useLocation, useNavigate } from 'react-router';

import { FullPageSpinner } from '@/components/ui/spinner';
import { isAdminPath, paths } from '@/config/paths';
import { useAdminUser } from '@/features/auth/api/get-admin-user';
import { useAuthUser } from '@/features/auth/api/get-auth-user';
import { LoginForm } from '@/features/auth/components/login-form';

function LoginCard({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <p className="text-center text-2xl font-bold tracking-tight text-indigo-700">Prospector</p>
        <div className="mt-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
          <p className="mt-1 mb-5 text-sm text-slate-500">{intro}</p>
          {children}
        </div>
      </div>
    </div>
  );
}

/** `/admin/login`: opens an admin session. */
export function LoginRoute() {
  const navigate = useNavigate();
  const adminUser = useAdminUser();
  const adminHome = paths.screens.dashboard.adminPath;

  if (adminUser.isPending) return <FullPageSpinner label="Checking your session" />;
  if (adminUser.data) return <Navigate to={adminHome} replace />;

  return (
    <LoginCard title="Admin login" intro="Only authorized admin accounts can sign in here.">
      <title>Admin login · Prospector</title>
      <LoginForm onSuccess={() => navigate(adminHome, { replace: true })} />
    </LoginCard>
  );
}

/**
 * `/login` (where `GET /api/login` sends the browser): opens an ordinary session and goes back to
 * the page that asked for it, or to the dashboard.
 */
export function UserLoginRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  const session = useAuthUser();
  // Set by the session layout when it sent the visitor here.
  const from = (location.state as { from?: unknown } | null)?.from;
  const next = typeof from === 'string' && !isAdminPath(from) ? from : paths.home.path;

  if (session.isPending) return <FullPageSpinner label="Checking your session" />;
  if (session.data) return <Navigate to={next} replace />;

  return (
    <LoginCard title="Sign in" intro="Use the email and password your administrator gave you.">
      <title>Sign in · Prospector</title>
      <LoginForm variant="user" onSuccess={() => navigate(next, { replace: true })} />
      <p className="mt-5 text-center text-sm text-slate-500">
        Administrator?{' '}
        <Link to={paths.auth.login.getHref()} className="font-medium text-indigo-700 hover:underline">
          Admin login
        </Link>
      </p>
    </LoginCard>
  );
}
