import * as Menu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { ADMIN_SCREENS, isAdminPath, paths, screenHref, type ScreenName } from '@/config/paths';
import { useAuthUser } from '@/features/auth/api/get-auth-user';
import { useAdminLogout } from '@/features/auth/api/logout';
import { AdminOnly } from '@/features/auth/components/admin-only';
import { toast } from '@/stores/toasts';

import { SiteFooter } from './site-footer';

export const LOGOUT_FAILED = 'Logout failed';

/**
 * The navigation groups of seed 000 §2.2, holding only the screens built so far
 * (a group with none is left out). Ops is the job-queue dashboard.
 */
export const NAV_GROUPS: { label: string; items: ScreenName[] }[] = [
  { label: 'Analytics', items: ['dashboard', 'discovery', 'pipeline', 'ops'] },
  { label: 'Customer Management', items: ['leads', 'customers', 'contacts', 'companies'] },
  { label: 'Campaign Tools', items: ['campaigns', 'emailCampaigns', 'emailSequences', 'meetings', 'voiceAgents', 'automation', 'aiManagement', 'aiFeatures'] },
  { label: 'Business Tools', items: ['invoicing', 'invoiceHistory'] },
  { label: 'Admin', items: ['users'] },
];

/** The groups a session sees: an ordinary session has no admin screens (and no group left empty). */
function navGroups(adminSession: boolean) {
  return NAV_GROUPS.map((g) => ({
    ...g,
    items: g.items.filter((name) => adminSession || !ADMIN_SCREENS.includes(name)),
  })).filter((g) => g.items.length > 0);
}

function isCurrent(name: ScreenName, pathname: string): boolean {
  const { path, adminPath } = paths.screens[name];
  if (name === 'dashboard') return [path, adminPath, paths.adminDashboard].includes(pathname);
  return pathname === path || pathname === adminPath;
}

export function AppShell() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const session = useAuthUser();
  const adminSession = session.data?.adminSession ?? false;
  const groups = navGroups(adminSession);
  // The admin area (/admin/*) and the admin screens are for admin sessions only.
  const adminOnly = !adminSession && (isAdminPath(pathname) || ADMIN_SCREENS.some((name) => isCurrent(name, pathname)));
  const displayName = [session.data?.firstName, session.data?.lastName].filter(Boolean).join(' ') || session.data?.email;
  const [mobileOpen, setMobileOpen] = useState(false);
  const logout = useAdminLogout({
    onSuccess: () => navigate(paths.auth.login.getHref(), { replace: true }),
    onError: () => toast({ title: LOGOUT_FAILED, variant: 'destructive' }),
  });

  const itemClass =
    'block rounded-md px-3 py-2 text-sm text-slate-700 outline-none hover:bg-slate-100 data-[highlighted]:bg-indigo-50 data-[highlighted]:text-indigo-700 aria-[current=page]:font-semibold aria-[current=page]:text-indigo-700';

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3">
          <div className="flex items-center gap-4">
            <Link
              to={screenHref('dashboard', pathname)}
              className="text-lg font-bold tracking-tight text-indigo-700"
            >
              Prospector
            </Link>
            <nav aria-label="Main" className="hidden md:block">
              <ul className="flex items-center gap-1">
                {groups.map((group) => (
                  <li key={group.label}>
                    <Menu.Root modal={false}>
                      <Menu.Trigger className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 data-[state=open]:bg-slate-100">
                        {group.label} <span aria-hidden="true">▾</span>
                      </Menu.Trigger>
                      <Menu.Portal>
                        <Menu.Content
                          align="start"
                          sideOffset={6}
                          className="z-40 min-w-48 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-200"
                        >
                          {group.items.map((name) => (
                            <Menu.Item key={name} asChild>
                              <Link
                                to={screenHref(name, pathname)}
                                aria-current={isCurrent(name, pathname) ? 'page' : undefined}
                                className={itemClass}
                              >
                                {paths.screens[name].label}
                              </Link>
                            </Menu.Item>
                          ))}
                        </Menu.Content>
                      </Menu.Portal>
                    </Menu.Root>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
          <div className="flex items-center gap-2">
            {session.data && adminSession ? (
              <p className="hidden text-sm text-slate-600 sm:block">
                <span className="sr-only">Signed in as </span>
                <span className="font-medium text-slate-900">{session.data.email}</span>
                <span className="ml-1.5 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                  Administrator
                </span>
              </p>
            ) : session.data ? (
              <p className="hidden text-sm text-slate-600 sm:block">
                <span className="sr-only">Signed in as </span>
                <span className="font-medium text-slate-900">{displayName}</span>
              </p>
            ) : null}
            {adminSession ? (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => logout.mutate()}
                disabled={logout.isPending}
              >
                {logout.isPending ? 'Logging out…' : 'Logout'}
              </Button>
            ) : (
              // Seed 000 §2.2: an ordinary user signs out through the server's page.
              <a
                href="/api/logout"
                className="inline-flex items-center rounded-md bg-white px-2.5 py-1 text-xs font-semibold text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
              >
                Logout
              </a>
            )}
            <Button
              variant="ghost"
              size="sm"
              className="md:hidden"
              aria-expanded={mobileOpen}
              aria-controls="mobile-menu"
              onClick={() => setMobileOpen((open) => !open)}
            >
              {mobileOpen ? 'Close menu' : 'Menu'}
            </Button>
          </div>
        </div>
        {mobileOpen ? (
          <nav id="mobile-menu" aria-label="Mobile" className="border-t border-slate-200 px-4 py-3 md:hidden">
            {groups.map((group) => (
              <div key={group.label} className="mb-3">
                <p className="px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">{group.label}</p>
                <ul>
                  {group.items.map((name) => (
                    <li key={name}>
                      <NavLink
                        to={screenHref(name, pathname)}
                        end
                        onClick={() => setMobileOpen(false)}
                        aria-current={isCurrent(name, pathname) ? 'page' : undefined}
                        className={itemClass}
                      >
                        {paths.screens[name].label}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        ) : null}
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
        {adminOnly ? <AdminOnly /> : <Outlet />}
      </main>
      <SiteFooter />
    </div>
  );
}
