import type { ReactNode } from 'react';

type PageHeaderProps = {
  title: string;
  /** A count shown next to the title ("128"), e.g. a list's total. */
  count?: number | string;
  /** A line under the title. */
  description?: ReactNode;
  /** The page's primary action (a button or link), on the right. */
  action?: ReactNode;
  /** Small text above the title, e.g. the record's kind and a link back to its list. */
  eyebrow?: ReactNode;
};

/** A page's title (its one h1) with an optional count, a description line and a primary action. */
export function PageHeader({ title, count, description, action, eyebrow }: PageHeaderProps) {
  return (
    <div data-testid="page-header" className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        {eyebrow ? <div className="mb-1 text-sm text-slate-500">{eyebrow}</div> : null}
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900">{title}</h1>
          {count !== undefined ? (
            <span
              data-testid="page-count"
              className="rounded-full bg-slate-100 px-2 py-0.5 text-sm font-medium text-slate-600 tabular-nums"
            >
              {typeof count === 'number' ? count.toLocaleString() : count}
            </span>
          ) : null}
        </div>
        {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
      </div>
      {/* Several buttons wrap on a narrow screen rather than push the page sideways. */}
      {action ? <div className="flex flex-wrap items-center gap-2">{action}</div> : null}
    </div>
  );
}
