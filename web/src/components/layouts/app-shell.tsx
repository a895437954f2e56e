import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { jobsHref, paths } from '@/config/paths';
import { useAdminUser } from '@/features/auth/api/get-admin-user';
import { useAdminLogout } from '@/features/auth/api/logout';
import { toast } from '@/stores/toasts';

export const LOGOUT_FAILED = 'Logout failed';

export function AppShell() {
  const location = useLocation();
  const navigate = useNavigate();
  const adminUser = useAdminUser();
  const logout = useAdminLogout({
    onSuccess: () => navigate(paths.auth.login.getHref(), { replace: true }),
    onError: () => toast({ title: LOGOUT_FAILED, variant: 'destructive' }),
  });

  const navClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-md px-3 py-1.5 text-sm font-medium ${
      isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
    }`;

  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
          <div className="flex items-center gap-6">
            <span className="text-lg font-bold tracking-tight text-indigo-700">Prospector</span>
            <nav aria-label="Main">
              <ul className="flex items-center gap-1">
                <li>
                  <NavLink to={jobsHref(location.pathname)} className={navClass}>
                    Jobs
                  </NavLink>
                </li>
              </ul>
            </nav>
          </div>
          <div className="flex items-center gap-3">
            {adminUser.data ? (
              <p className="hidden text-sm text-slate-600 sm:block">
                <span className="sr-only">Signed in as </span>
                <span className="font-medium text-slate-900">{adminUser.data.email}</span>
                <span className="ml-1.5 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                  Administrator
                </span>
              </p>
            ) : null}
            <Button
              variant="secondary"
              size="sm"
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
            >
              {logout.isPending ? 'Logging out…' : 'Logout'}
            </Button>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
