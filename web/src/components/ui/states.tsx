import type { ReactNode } from 'react';

import { errorMessage } from '@/lib/api-client';

import { Button } from './button';

/** Grey placeholder blocks while a list loads. */
export function Skeleton({ rows = 3, label }: { rows?: number; label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-3">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-16 animate-pulse rounded-lg bg-slate-200/70" />
      ))}
    </div>
  );
}

type ErrorStateProps = {
  title: string;
  error: unknown;
  onRetry: () => void;
  retryLabel?: string;
};

/** A failed read: what failed, the server's message and a way to try again. */
export function ErrorState({ title, error, onRetry, retryLabel = 'Retry' }: ErrorStateProps) {
  return (
    <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 p-5 text-center">
      <p className="font-semibold text-rose-900">{title}</p>
      <p className="mt-1 text-sm text-rose-800">{errorMessage(error)}</p>
      <Button variant="secondary" className="mt-3" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
      <p className="font-medium text-slate-800">{title}</p>
      {children ? <div className="mt-2 text-sm text-slate-500">{children}</div> : null}
    </div>
  );
}

/** A titled white panel. */
export function Card({
  title,
  actions,
  children,
  className = '',
}: {
  title?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-label={title}
      className={`rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200 ${className}`}
    >
      {title || actions ? (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title ? <h2 className="font-semibold text-slate-900">{title}</h2> : <span />}
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** A KPI tile: a label and a figure, optionally a note and a click action. */
export function StatTile({
  label,
  value,
  note,
  onClick,
  testId,
}: {
  label: string;
  value: ReactNode;
  note?: ReactNode;
  onClick?: () => void;
  testId?: string;
}) {
  const body = (
    <>
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-bold tracking-tight text-slate-900 tabular-nums">{value}</p>
      {note ? <p className="mt-1 text-xs text-slate-500">{note}</p> : null}
    </>
  );
  const className = 'rounded-xl bg-white p-4 text-left shadow-xs ring-1 ring-slate-200';
  return onClick ? (
    <button
      type="button"
      data-testid={testId}
      onClick={onClick}
      className={`${className} hover:ring-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600`}
    >
      {body}
    </button>
  ) : (
    <div data-testid={testId} className={className}>
      {body}
    </div>
  );
}
