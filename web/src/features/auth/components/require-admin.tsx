import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';

import { useAdminUser } from '../api/get-admin-user';

/** Renders its children only for a signed-in admin; otherwise sends to the login page. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const location = useLocation();
  const adminUser = useAdminUser();

  if (adminUser.isPending) return <FullPageSpinner label="Checking your session" />;

  if (adminUser.isError) {
    return (
      <div className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
        <p role="alert" className="text-sm text-rose-700">
          Could not check your session: {errorMessage(adminUser.error)}
        </p>
        <Button variant="secondary" onClick={() => void adminUser.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  if (!adminUser.data) {
    return <Navigate to={paths.auth.login.getHref()} replace state={{ from: location.pathname }} />;
  }

  return children;
}
