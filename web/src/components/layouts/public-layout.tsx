import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { paths } from '@/config/paths';

import { SiteFooter } from './site-footer';

/** Header, main column and footer of the public pages. */
export function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <title>{`${title} · Prospector`}</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-4xl px-4 py-3">
          <Link to={paths.home.getHref()} className="text-lg font-bold tracking-tight text-indigo-700">
            Prospector
          </Link>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-4xl flex-1 px-4 py-10">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
