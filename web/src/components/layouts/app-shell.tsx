import * as RadixDialog from '@radix-ui/react-dialog';
import { Menu, Search, X } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { ADMIN_SCREENS, isAdminPath, paths, screenHref } from '@/config/paths';
import { useAuthUser } from '@/features/auth/api/get-auth-user';
import { useAdminLogout } from '@/features/auth/api/logout';
import { AdminOnly } from '@/features/auth/components/admin-only';
import { toast } from '@/stores/toasts';

import { isCurrent, navGroups } from './nav';
import { Sidebar, SidebarNav } from './sidebar';
import { SiteFooter } from './site-footer';

export { NAV_GROUPS } from './nav';

export const LOGOUT_FAILED = 'Logout failed';

/** Where the sidebar's collapsed state is remembered. */
export const SIDEBAR_STORAGE_KEY = 'prospector.sidebar.collapsed';

// The palette (cmdk) is its own chunk, loaded on first use.
const CommandPalette = lazy(() =>
  import('@/features/search/components/command-palette').then((m) => ({ default: m.CommandPalette })),
);

const readCollapsed = (): boolean => {
  try {
    return localStorage.getItem(SIDEBAR_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
};

/** Apple keyboards open the palette with ⌘K, the others with Ctrl-K. */
export const isMac = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform);

export function AppShell() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const session = useAuthUser();
  const adminSession = session.data?.adminSession ?? false;
  const groups = navGroups(adminSession);
  // The admin area (/admin/*) and the admin screens are for admin sessions only.
  const adminOnly = !adminSession && (isAdminPath(pathname) || ADMIN_SCREENS.some((name) => isCurrent(name, pathname)));
  const displayName = [session.data?.firstName, session.data?.lastName].filter(Boolean).join(' ') || session.data?.email;
  const logout = useAdminLogout({
    onSuccess: () => navigate(paths.auth.login.getHref(), { replace: true }),
    onError: () => toast({ title: LOGOUT_FAILED, variant: 'destructive' }),
  });

  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggleCollapsed = () =>
    setCollapsed((was) => {
      try {
        localStorage.setItem(SIDEBAR_STORAGE_KEY, String(!was));
      } catch {
        // Private mode: the choice lasts for this page only.
      }
      return !was;
    });

  // The drawer closes whenever the address changes (a link, Back, the palette).
  const [mobileOpen, setMobileOpen] = useState(false);
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setMobileOpen(false);
  }

  const [palette, setPalette] = useState<{ open: boolean; opener: HTMLElement | null } | null>(null);
  const openPalette = useCallback(() => {
    const active = document.activeElement;
    // Pressed again while open: keep the first opener to return to.
    setPalette((p) => (p?.open ? p : { open: true, opener: active instanceof HTMLElement ? active : null }));
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'k' || event.altKey || event.shiftKey) return;
      if (!(isMac() ? event.metaKey : event.ctrlKey)) return;
      event.preventDefault();
      openPalette();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [openPalette]);
  const shortcut = isMac() ? '⌘K' : 'Ctrl K';

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="flex h-14 items-center justify-between gap-3 px-4">
          <div className="flex min-w-0 items-center gap-2">
            <RadixDialog.Root open={mobileOpen} onOpenChange={setMobileOpen}>
              <RadixDialog.Trigger asChild>
                <Button variant="ghost" size="sm" className="md:hidden" aria-label="Menu">
                  <Menu aria-hidden="true" className="size-5" />
                </Button>
              </RadixDialog.Trigger>
              <RadixDialog.Portal>
                <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40 md:hidden" />
                <RadixDialog.Content
                  aria-describedby={undefined}
                  className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none md:hidden"
                >
                  <div className="flex h-14 items-center justify-between border-b border-slate-200 px-4">
                    <RadixDialog.Title className="text-lg font-bold tracking-tight text-indigo-700">Prospector</RadixDialog.Title>
                    <RadixDialog.Close
                      aria-label="Close menu"
                      className="rounded p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                    >
                      <X aria-hidden="true" className="size-5" />
                    </RadixDialog.Close>
                  </div>
                  <SidebarNav label="Mobile" groups={groups} pathname={pathname} onNavigate={() => setMobileOpen(false)} />
                </RadixDialog.Content>
              </RadixDialog.Portal>
            </RadixDialog.Root>
            <Link
              to={screenHref('dashboard', pathname)}
              className="text-lg font-bold tracking-tight text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              Prospector
            </Link>
          </div>
          <button
            type="button"
            onClick={openPalette}
            aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'}
            className="flex min-w-0 flex-1 items-center gap-2 rounded-md px-3 py-1.5 text-sm text-slate-500 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 sm:max-w-sm"
          >
            <Search aria-hidden="true" className="size-4 shrink-0" />
            <span className="truncate">Search…</span>
            <kbd className="ml-auto hidden rounded bg-slate-100 px-1.5 py-0.5 font-sans text-xs text-slate-600 sm:inline">
              {shortcut}
            </kbd>
          </button>
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
          </div>
        </div>
      </header>
      <div className="flex flex-1">
        <Sidebar groups={groups} pathname={pathname} collapsed={collapsed} onToggle={toggleCollapsed} />
        <div className="flex min-w-0 flex-1 flex-col">
          <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
            {adminOnly ? <AdminOnly /> : <Outlet />}
          </main>
          <SiteFooter />
        </div>
      </div>
      {palette ? (
        <Suspense fallback={null}>
          <CommandPalette
            open={palette.open}
            onOpenChange={(open) => setPalette((p) => (p ? { ...p, open } : p))}
            adminSession={adminSession}
            returnFocusTo={palette.opener}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
