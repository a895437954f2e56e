import { Link, useLocation } from 'react-router';

import { appHref, screenHref } from '@/config/paths';

import { usePossibleDuplicates } from '../api/get-possible-duplicates';
import type { MergeRecordType } from '../api/types';

/**
 * A record page's notice: other records that may be the same one, each with why, and the way to
 * the Duplicates screen where they are merged. Nothing is shown when there are none.
 */
export function PossibleDuplicates({ type, id }: { type: MergeRecordType; id: string }) {
  const { pathname } = useLocation();
  const twins = usePossibleDuplicates(type, id);
  const list = twins.data ?? [];
  if (list.length === 0) return null;
  const noun = type === 'company' ? 'company' : 'contact';
  return (
    <aside aria-label="Possible duplicates" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
      <p className="font-semibold">
        Possible duplicates: {list.length === 1 ? `1 other ${noun}` : `${list.length} other ${noun === 'company' ? 'companies' : 'contacts'}`} may be the same
      </p>
      <ul className="mt-1 space-y-0.5">
        {list.slice(0, 5).map((t) => (
          <li key={t.id} className="break-words">
            <Link to={appHref(t.href, pathname)} className="font-medium text-indigo-700 hover:underline">
              {t.name}
            </Link>{' '}
            <span className="text-amber-800">({t.reasons.map((r) => r.label.toLowerCase()).join(', ')})</span>
          </li>
        ))}
      </ul>
      <Link to={screenHref('duplicates', pathname, `?type=${type}`)} className="mt-1 inline-block font-medium text-indigo-700 hover:underline">
        Review and merge
      </Link>
    </aside>
  );
}
