import { Navigate, useLocation } from 'react-router';

import { AppShell } from '@/components/layouts/app-shell';
import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { isAdminPath, paths } from '@/config/paths';
import { useAdminUser } from '@/features/auth/api/get-admin-user';
import { errorMessage } from '@/lib/api-client';

import { LandingRoute } from './routes/landing';

/** `/?unauthorized=true`: the landing page with the 'Authentication Required' toast. */
export const UNAUTHORIZED_HREF = '/?unauthorized=true';

/**
 * The admin pages exist only for a signed-in session (seed 000 §2.1, §6). At `/`
 * the landing page shows while the session check loads or when signed out; any
 * other page sends a visitor to the admin login (under /admin) or to the landing
 * page with the 'unauthorized' notice.
 */
export function SessionLayout() {
  const { pathname } = useLocation();
  const adminUser = useAdminUser();

  if (adminUser.data) return <AppShell />;
  if (pathname === paths.home.path) return <LandingRoute />;
  if (adminUser.isPending) return <FullPageSpinner label="Checking your session" />;
  if (adminUser.isError) {
    return (
      <div className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
        <p role="alert" className="text-sm text-rose-700">
          Could not check your session: {errorMessage(adminUser.error)}
        </p>
        <Button variant="secondary" onClick={() => void adminUser.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  return isAdminPath(pathname) ? (
    <Navigate to={paths.auth.login.getHref()} replace state={{ from: pathname }} />
  ) : (
    <Navigate to={UNAUTHORIZED_HREF} replace />
  );
}
