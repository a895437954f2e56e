import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

import { FullPageSpinner } from '@/components/ui/spinner';
import { paths, type ScreenName } from '@/config/paths';

import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { SessionLayout } from './session-layout';

type LazyScreen = () => Promise<{ Component: ComponentType }>;

/** Each screen is its own chunk, loaded when first visited. */
const screens: Record<ScreenName, LazyScreen> = {
  dashboard: () => import('./routes/dashboard').then((m) => ({ Component: m.DashboardRoute })),
  pipeline: () => import('./routes/pipeline').then((m) => ({ Component: m.PipelineRoute })),
  jobs: () => import('./routes/jobs').then((m) => ({ Component: m.JobsRoute })),
  leads: () => import('./routes/leads').then((m) => ({ Component: m.LeadsRoute })),
  customers: () => import('./routes/customers').then((m) => ({ Component: m.CustomersRoute })),
  contacts: () => import('./routes/contacts').then((m) => ({ Component: m.ContactsRoute })),
  companies: () => import('./routes/companies').then((m) => ({ Component: m.CompaniesRoute })),
  meetings: () => import('./routes/meetings').then((m) => ({ Component: m.MeetingsRoute })),
};

/** Every screen at its root path and its /admin path (seed 000 §2.1). */
const screenRoutes: RouteObject[] = (Object.keys(screens) as ScreenName[]).flatMap((name) => {
  const { path, adminPath } = paths.screens[name];
  const lazy = screens[name];
  const extra = name === 'dashboard' ? [paths.adminDashboard] : [];
  return [path, adminPath, ...extra].map((p) => (p === '/' ? { index: true, lazy } : { path: p, lazy }));
});

/** The route table; the app uses a browser router, tests a memory router. */
export const routes: RouteObject[] = [
  { path: paths.auth.login.path, element: <LoginRoute /> },
  {
    path: '/',
    element: <SessionLayout />,
    // Shown while the first screen's chunk loads.
    HydrateFallback: () => <FullPageSpinner label="Loading" />,
    children: screenRoutes,
  },
  { path: '*', element: <NotFoundRoute /> },
];
