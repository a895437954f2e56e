import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

import { FullPageSpinner } from '@/components/ui/spinner';
import { paths, type RecordType, type ScreenName } from '@/config/paths';

import { LegacyOpsRedirect } from './routes/legacy-ops-redirect';
import { LoginRoute, UserLoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { SessionLayout } from './session-layout';

/** A page loaded as its own chunk when first visited. */
const lazyPage = (load: () => Promise<ComponentType>) => async () => ({ Component: await load() });

const screens: Record<ScreenName, ReturnType<typeof lazyPage>> = {
  dashboard: lazyPage(() => import('./routes/dashboard').then((m) => m.DashboardRoute)),
  discovery: lazyPage(() => import('./routes/discovery').then((m) => m.DiscoveryRoute)),
  pipeline: lazyPage(() => import('./routes/pipeline').then((m) => m.PipelineRoute)),
  ops: lazyPage(() => import('./routes/jobs').then((m) => m.JobsRoute)),
  leads: lazyPage(() => import('./routes/leads').then((m) => m.LeadsRoute)),
  customers: lazyPage(() => import('./routes/customers').then((m) => m.CustomersRoute)),
  contacts: lazyPage(() => import('./routes/contacts').then((m) => m.ContactsRoute)),
  companies: lazyPage(() => import('./routes/companies').then((m) => m.CompaniesRoute)),
  duplicates: lazyPage(() => import('./routes/duplicates').then((m) => m.DuplicatesRoute)),
  campaigns: lazyPage(() => import('./routes/campaigns').then((m) => m.CampaignsRoute)),
  emailCampaigns: lazyPage(() => import('./routes/email-campaigns').then((m) => m.EmailCampaignsRoute)),
  emailSequences: lazyPage(() => import('./routes/email-sequences').then((m) => m.EmailSequencesRoute)),
  meetings: lazyPage(() => import('./routes/meetings').then((m) => m.MeetingsRoute)),
  voiceAgents: lazyPage(() => import('./routes/voice-agents').then((m) => m.VoiceAgentsRoute)),
  automation: lazyPage(() => import('./routes/automation').then((m) => m.AutomationRoute)),
  aiManagement: lazyPage(() => import('./routes/ai-management').then((m) => m.AiManagementRoute)),
  aiFeatures: lazyPage(() => import('./routes/ai-features').then((m) => m.AiFeaturesRoute)),
  emailConfig: lazyPage(() => import('./routes/email-config').then((m) => m.EmailConfigRoute)),
  invoicing: lazyPage(() => import('./routes/invoicing').then((m) => m.InvoicingRoute)),
  invoiceHistory: lazyPage(() => import('./routes/invoice-history').then((m) => m.InvoiceHistoryRoute)),
  users: lazyPage(() => import('./routes/users').then((m) => m.UsersRoute)),
  webhooks: lazyPage(() => import('./routes/webhooks').then((m) => m.WebhooksRoute)),
};

/** The record pages (issue 23): one chunk for the three. */
const records: Record<RecordType, ReturnType<typeof lazyPage>> = {
  company: lazyPage(() => import('./routes/records').then((m) => m.CompanyRecordRoute)),
  contact: lazyPage(() => import('./routes/records').then((m) => m.ContactRecordRoute)),
  deal: lazyPage(() => import('./routes/records').then((m) => m.DealRecordRoute)),
};

const recordRoutes: RouteObject[] = (Object.keys(records) as RecordType[]).flatMap((type) =>
  [paths.records[type].path, paths.records[type].adminPath].map((path) => ({ path, lazy: records[type] })),
);

/** Every screen at its root path and its /admin path (seed 000 §2.1). */
const screenRoutes: RouteObject[] = (Object.keys(screens) as ScreenName[]).flatMap((name): RouteObject[] => {
  const { path, adminPath } = paths.screens[name];
  const lazy = screens[name];
  const extra = name === 'dashboard' ? [paths.adminDashboard] : [];
  return [path, adminPath, ...extra].map((p) => (p === '/' ? { index: true, lazy } : { path: p, lazy }));
})
  .concat(recordRoutes)
  .concat(paths.legacyOps.map((p) => ({ path: p, element: <LegacyOpsRedirect /> })));

/** The route table; the app uses a browser router, tests a memory router. */
export const routes: RouteObject[] = [
  {
    // Shown while the first page's chunk loads.
    HydrateFallback: () => <FullPageSpinner label="Loading" />,
    children: [
      { path: paths.auth.login.path, element: <LoginRoute /> },
      { path: paths.auth.userLogin.path, element: <UserLoginRoute /> },
      { path: paths.public.dealers, lazy: lazyPage(() => import('./routes/dealers').then((m) => m.DealersRoute)) },
      { path: paths.public.thankYou, lazy: lazyPage(() => import('./routes/thank-you').then((m) => m.ThankYouRoute)) },
      { path: paths.public.privacy, lazy: lazyPage(() => import('./routes/legal').then((m) => m.PrivacyPolicyRoute)) },
      { path: paths.public.terms, lazy: lazyPage(() => import('./routes/legal').then((m) => m.TermsOfServiceRoute)) },
      { path: '/', element: <SessionLayout />, children: screenRoutes },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];
