/**
 * The one table of front-end routes (seed 000 §2.1). Public pages have one path;
 * every admin screen lives at the root and again under /admin with the same name
 * (the dashboard at / and at /admin and /admin/dashboard). Components link with
 * `screenHref`, which keeps the /admin prefix in admin mode.
 */

export type Screen = {
  /** Root path, e.g. `/contacts`. */
  path: string;
  /** The same screen under the admin prefix. */
  adminPath: string;
  label: string;
};

const screen = (name: string, label: string): Screen => ({
  path: `/${name}`,
  adminPath: `/admin/${name}`,
  label,
});

export const paths = {
  home: {
    path: '/',
    getHref: () => '/',
  },
  auth: {
    login: {
      path: '/admin/login',
      getHref: () => '/admin/login',
    },
    /** Ordinary users sign in here (`GET /api/login` opens it). */
    userLogin: {
      path: '/login',
      getHref: () => '/login',
    },
  },
  /** Public pages: no login needed (seed 002). */
  public: {
    dealers: '/dealers',
    thankYou: '/thank-you',
    privacy: '/privacy-policy',
    terms: '/terms-of-service',
  },
  /** The admin pages built so far; only these are routed and linked. */
  screens: {
    dashboard: { path: '/', adminPath: '/admin', label: 'Dashboard' },
    discovery: screen('discovery', 'Discovery'),
    pipeline: screen('pipeline', 'Pipeline'),
    ops: screen('ops', 'Ops'),
    leads: screen('leads', 'Leads'),
    customers: screen('customers', 'Customers'),
    contacts: screen('contacts', 'All Contacts'),
    companies: screen('companies', 'Companies'),
    duplicates: screen('duplicates', 'Duplicates'),
    campaigns: screen('campaigns', 'Campaigns'),
    emailCampaigns: screen('email-campaigns', 'Email Campaigns'),
    emailSequences: screen('email-sequences', 'Email Sequences'),
    meetings: screen('meetings', 'Meetings'),
    voiceAgents: screen('voice-agents', 'Voice Agents'),
    automation: screen('business-development', 'Automation'),
    aiManagement: screen('ai-management', 'AI Training'),
    aiFeatures: screen('ai-features', 'AI Features'),
    emailConfig: screen('email-config', 'Email Configuration'),
    invoicing: screen('invoicing', 'Invoicing'),
    invoiceHistory: screen('invoice-history', 'Invoice History'),
    users: screen('users', 'Users'),
    webhooks: screen('webhooks', 'Webhooks'),
  },
  /** One record's page, at the root and under /admin (`:id` is the record's id). */
  records: {
    company: { path: '/companies/:id', adminPath: '/admin/companies/:id' },
    contact: { path: '/contacts/:id', adminPath: '/admin/contacts/:id' },
    deal: { path: '/deals/:id', adminPath: '/admin/deals/:id' },
  },
  /** The ops screen's earlier addresses: they redirect to it, keeping `?job=` and the filters. */
  legacyOps: ['/jobs', '/admin/jobs'],
  /** The dashboard's second admin address. */
  adminDashboard: '/admin/dashboard',
} as const satisfies {
  screens: Record<string, Screen>;
  [key: string]: unknown;
};

export type ScreenName = keyof typeof paths.screens;

/** Screens only an admin session may use: hidden from other sessions' navigation. */
export const ADMIN_SCREENS: readonly ScreenName[] = ['ops', 'users', 'webhooks'];

/** In admin mode (the path starts with /admin) navigation links keep the /admin prefix. */
export const isAdminPath = (pathname: string): boolean =>
  pathname === '/admin' || pathname.startsWith('/admin/');

/** The address of `name` from the page at `pathname`, with `search` (e.g. `?job=…`) appended. */
export function screenHref(name: ScreenName, pathname: string, search = ''): string {
  const target = paths.screens[name];
  return (isAdminPath(pathname) ? target.adminPath : target.path) + search;
}

export type RecordType = keyof typeof paths.records;

/** The page of one company, contact or deal from the page at `pathname` (keeps the /admin prefix). */
export function recordHref(type: RecordType, id: string, pathname: string): string {
  const { path, adminPath } = paths.records[type];
  return (isAdminPath(pathname) ? adminPath : path).replace(':id', encodeURIComponent(id));
}

/**
 * A root address from the server (e.g. a search result's `/email-campaigns?campaign=7` or
 * `/deals/01J…`) as a link from the page at `pathname`: under /admin it gets the prefix, keeping
 * its query string and hash. Addresses that are not root paths (`https://…`, `//host`) and the
 * admin area's own addresses are returned as they are.
 */
export function appHref(href: string, pathname: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  if (!isAdminPath(pathname) || isAdminPath(href.replace(/[?#].*$/, ''))) return href;
  return href === '/' ? '/admin' : href.startsWith('/?') || href.startsWith('/#') ? `/admin${href.slice(1)}` : `/admin${href}`;
}

/**
 * Every address the router serves. The build writes it to `dist/routes.json`, and the server
 * answers any other address outside `/api` with the not-found page and HTTP 404.
 */
export function appRoutePaths(): string[] {
  const screens = Object.values(paths.screens).flatMap((s: Screen) => [s.path, s.adminPath]);
  return [
    ...new Set([
      ...screens,
      paths.adminDashboard,
      ...Object.values(paths.records).flatMap((r) => [r.path, r.adminPath]),
      ...paths.legacyOps,
      paths.auth.login.path,
      paths.auth.userLogin.path,
      ...Object.values(paths.public),
    ]),
  ].sort();
}
