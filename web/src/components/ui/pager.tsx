import { formatTotal } from '@/lib/api-client';

import { Button } from './button';

type PagerProps = {
  offset: number;
  count: number;
  total: number;
  /** False when `total` is a floor ("1,000+"): Next stays on while pages come back full. */
  exact?: boolean;
  pageSize: number;
  onOffsetChange: (offset: number) => void;
};

/** 'Showing 1–50 of 120' (or 'of 1,000+') with Previous / Next. */
export function Pager({ offset, count, total, exact = true, pageSize, onOffsetChange }: PagerProps) {
  if (exact && total <= pageSize && offset === 0) return null;
  const last = exact ? offset + count >= total : count < pageSize;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
      <p>
        Showing {count === 0 ? 0 : offset + 1}–{offset + count} of {formatTotal({ total, exact })}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={offset === 0} onClick={() => onOffsetChange(Math.max(0, offset - pageSize))}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={last} onClick={() => onOffsetChange(offset + pageSize)}>
          Next
        </Button>
      </div>
    </div>
  );
}
