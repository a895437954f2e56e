import { Navigate, type RouteObject } from 'react-router';

import { AppShell } from '@/components/layouts/app-shell';
import { paths } from '@/config/paths';
import { RequireAdmin } from '@/features/auth/components/require-admin';

import { JobsRoute } from './routes/jobs';
import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { RootRedirect } from './routes/root-redirect';

/** The route table; the app uses a browser router, tests a memory router. */
export const routes: RouteObject[] = [
  { path: paths.home.path, element: <RootRedirect /> },
  { path: paths.auth.login.path, element: <LoginRoute /> },
  {
    element: (
      <RequireAdmin>
        <AppShell />
      </RequireAdmin>
    ),
    children: [
      { path: paths.admin.root.path, element: <Navigate to={paths.admin.jobs.getHref()} replace /> },
      { path: paths.admin.jobs.path, element: <JobsRoute /> },
      { path: paths.app.jobs.path, element: <JobsRoute /> },
    ],
  },
  { path: '*', element: <NotFoundRoute /> },
];
