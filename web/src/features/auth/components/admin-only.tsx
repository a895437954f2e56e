import { Link } from 'react-router';

import { paths } from '@/config/paths';

/**
 * What a session without admin rights sees on an admin page: why, and where to go instead. The
 * admin calls would answer 403, so the page is not rendered at all.
 */
export function AdminOnly() {
  return (
    <section aria-labelledby="admin-only-title" className="mx-auto max-w-lg rounded-xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
      <title>Admins only · Prospector</title>
      <h1 id="admin-only-title" className="text-xl font-semibold text-slate-900">
        Admins only
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        This page is for administrators. Sign in at the admin login with an admin account to use it.
      </p>
      <div className="mt-5 flex justify-center gap-3 text-sm font-medium">
        <Link to={paths.home.getHref()} className="text-indigo-700 hover:underline">
          Back to the dashboard
        </Link>
        <Link to={paths.auth.login.getHref()} className="text-indigo-700 hover:underline">
          Go to the admin login
        </Link>
      </div>
    </section>
  );
}
