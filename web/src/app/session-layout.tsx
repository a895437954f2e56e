import { Navigate, useLocation } from 'react-router';

import { AppShell } from '@/components/layouts/app-shell';
import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { isAdminPath, paths } from '@/config/paths';
import { useAuthUser } from '@/features/auth/api/get-auth-user';
import { errorMessage } from '@/lib/api-client';

import { LandingRoute } from './routes/landing';

/**
 * The app's pages exist only for a signed-in session, an ordinary or an admin one (seed 000 §2.1,
 * §6). At `/` the landing page shows while the session check loads or when signed out; any other
 * page sends a visitor to sign in and back: the admin login for /admin/*, the users' login
 * (`/login`) for the rest.
 */
export function SessionLayout() {
  const { pathname, search } = useLocation();
  const session = useAuthUser();

  if (session.data) return <AppShell />;
  if (pathname === paths.home.path) return <LandingRoute />;
  if (session.isPending) return <FullPageSpinner label="Checking your session" />;
  if (session.isError) {
    return (
      <div className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
        <p role="alert" className="text-sm text-rose-700">
          Could not check your session: {errorMessage(session.error)}
        </p>
        <Button variant="secondary" onClick={() => void session.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  const login = isAdminPath(pathname) ? paths.auth.login : paths.auth.userLogin;
  return <Navigate to={login.getHref()} replace state={{ from: pathname + search }} />;
}
