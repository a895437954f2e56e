import { Link } from 'react-router';

import { paths } from '@/config/paths';

export function NotFoundRoute() {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-3 px-4 text-center">
      <title>Page not found · Prospector</title>
      <p className="text-sm font-semibold text-indigo-600">404</p>
      <h1 className="text-2xl font-bold tracking-tight">Page not found</h1>
      <p className="text-sm text-slate-600">Sorry, there is nothing at this address.</p>
      <Link to={paths.home.getHref()} className="text-sm font-semibold text-indigo-700 hover:underline">
        Go to the start page
      </Link>
    </div>
  );
}
