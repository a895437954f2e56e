import { Link } from 'react-router';

import { paths } from '@/config/paths';

/** The footer of the public pages and the app shell: the legal pages and a contact line. */
export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-5 text-sm text-slate-500">
        <p>Questions about Prospector? Contact your account administrator.</p>
        <nav aria-label="Legal" className="flex gap-4">
          <Link to={paths.public.privacy} className="hover:text-slate-900 hover:underline">
            Privacy Policy
          </Link>
          <Link to={paths.public.terms} className="hover:text-slate-900 hover:underline">
            Terms of Service
          </Link>
        </nav>
      </div>
    </footer>
  );
}
