import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

import { recordHref, type RecordType } from '@/config/paths';

/** A link to a company's, contact's or deal's page, keeping the /admin prefix in admin mode. */
export function RecordLink({
  type,
  id,
  children,
  label,
  className = 'hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600',
}: {
  type: RecordType;
  id: string;
  children: ReactNode;
  /** An accessible name when the text alone is not enough ("Open contact of Site visit"). */
  label?: string;
  className?: string;
}) {
  const { pathname } = useLocation();
  return (
    <Link to={recordHref(type, id, pathname)} aria-label={label} className={className}>
      {children}
    </Link>
  );
}
