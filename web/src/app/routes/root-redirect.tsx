import { Navigate } from 'react-router';

import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAdminUser } from '@/features/auth/api/get-admin-user';

/** `/`: the Jobs page for a signed-in admin, else the admin login. */
export function RootRedirect() {
  const adminUser = useAdminUser();
  if (adminUser.isPending) return <FullPageSpinner label="Checking your session" />;
  return (
    <Navigate
      to={adminUser.data ? paths.admin.jobs.getHref() : paths.auth.login.getHref()}
      replace
    />
  );
}
