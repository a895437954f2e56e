import * as Menu from '@radix-ui/react-dropdown-menu';

import { DragHandle, useBoardCard, type CardRow } from '@/components/ui/board';
import { RecordLink } from '@/features/records/components/record-link';
import { formatDay } from '@/lib/format';
import { formatDollars } from '@/lib/rules';
import type { Deal } from '@/types/api';

import { nextStage, stageInfo, type DealStage } from '../api/stages';

type Props = {
  deal: Deal;
  /** The board column it is listed in (stage-less deals in qualification). */
  column: DealStage;
  row: CardRow;
  /** Its move to the next stage is on its way. */
  moving: boolean;
  onEdit: () => void;
  onNextStage: () => void;
  onDelete: () => void;
};

const itemClass =
  'block w-full cursor-pointer rounded-md px-3 py-2 text-left text-sm outline-none data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400 data-[highlighted]:bg-indigo-50';

export function DealCard({ deal, column, row, moving, onEdit, onNextStage, onDelete }: Props) {
  const info = stageInfo(deal.stage);
  const canMove = nextStage(deal.stage) !== null;
  const { item, handle, isDragging } = useBoardCard(deal, column, row, !canMove);
  const statusLine =
    info.stage === 'closed_won' && deal.actualCloseDate ? `${info.statusLine} ${deal.actualCloseDate}` : info.statusLine;
  return (
    <li
      {...item}
      aria-label={deal.title}
      aria-busy={moving || undefined}
      className={`rounded-lg bg-white p-3 shadow-xs ${isDragging || moving ? 'opacity-50' : ''}`}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="flex min-w-0 items-start gap-1.5">
          {/* Closed Won is the last stage: nothing to drag it to. */}
          {canMove ? <DragHandle label={`Drag ${deal.title}`} handle={handle} /> : null}
          <h3 className="min-w-0 text-sm font-semibold break-words text-slate-900">
            <RecordLink type="deal" id={deal.id}>
              {deal.title}
            </RecordLink>
          </h3>
        </div>
        <Menu.Root modal={false}>
          <Menu.Trigger
            aria-label={`Actions for ${deal.title}`}
            className="rounded px-1.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            ⋯
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content align="end" className="z-40 min-w-44 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-200">
              <Menu.Item className={itemClass} onSelect={onEdit}>
                Edit Deal
              </Menu.Item>
              <Menu.Item className={itemClass} disabled={!canMove} onSelect={onNextStage}>
                Move to next stage
              </Menu.Item>
              <Menu.Item className={`${itemClass} text-rose-700`} onSelect={onDelete}>
                Delete Deal
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      </div>
      <p className="mt-1 text-sm font-medium text-slate-800">{formatDollars(deal.value)}</p>
      <p className="text-xs text-slate-500">{statusLine}</p>
      <div className="mt-2 flex items-center justify-between text-xs">
        <span className="rounded bg-indigo-50 px-1.5 py-0.5 font-semibold text-indigo-700">{deal.probability}%</span>
        <span className="text-slate-500">{deal.expectedCloseDate ? `Close ${formatDay(deal.expectedCloseDate)}` : 'No close date'}</span>
      </div>
    </li>
  );
}
