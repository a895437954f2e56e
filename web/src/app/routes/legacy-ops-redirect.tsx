import { Navigate, useLocation } from 'react-router';

import { paths } from '@/config/paths';

/** `/jobs` and `/admin/jobs` (the ops screen's first addresses) go to `/ops`, query kept. */
export function LegacyOpsRedirect() {
  const { pathname, search } = useLocation();
  const target = pathname.startsWith('/admin/') ? paths.screens.ops.adminPath : paths.screens.ops.path;
  return <Navigate to={target + search} replace />;
}
