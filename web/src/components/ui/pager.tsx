import { Button } from './button';

type PagerProps = {
  offset: number;
  count: number;
  total: number;
  pageSize: number;
  onOffsetChange: (offset: number) => void;
};

/** 'Showing 1–50 of 120' with Previous / Next. */
export function Pager({ offset, count, total, pageSize, onOffsetChange }: PagerProps) {
  if (total <= pageSize && offset === 0) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
      <p>
        Showing {count === 0 ? 0 : offset + 1}–{offset + count} of {total.toLocaleString()}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={offset === 0} onClick={() => onOffsetChange(Math.max(0, offset - pageSize))}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={offset + count >= total} onClick={() => onOffsetChange(offset + pageSize)}>
          Next
        </Button>
      </div>
    </div>
  );
}
