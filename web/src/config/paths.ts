/**
 * The one table of front-end routes. Components link with `getHref`, the router
 * registers `path`. Admin pages live under /admin and, for a signed-in admin,
 * also at the root with the same names (seed §2.1).
 */
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
  },
  admin: {
    root: {
      path: '/admin',
      getHref: () => '/admin',
    },
    jobs: {
      path: '/admin/jobs',
      getHref: (jobId?: string) =>
        jobId ? `/admin/jobs?job=${encodeURIComponent(jobId)}` : '/admin/jobs',
    },
  },
  app: {
    jobs: {
      path: '/jobs',
      getHref: (jobId?: string) => (jobId ? `/jobs?job=${encodeURIComponent(jobId)}` : '/jobs'),
    },
  },
} as const;

/** In admin mode (the path starts with /admin) navigation links keep the /admin prefix. */
export const isAdminPath = (pathname: string): boolean =>
  pathname === '/admin' || pathname.startsWith('/admin/');

export const jobsHref = (pathname: string, jobId?: string): string =>
  isAdminPath(pathname) ? paths.admin.jobs.getHref(jobId) : paths.app.jobs.getHref(jobId);
