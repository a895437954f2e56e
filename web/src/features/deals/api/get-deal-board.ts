import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { useColumnPages } from '@/lib/use-column-pages';
import type { DealBoardColumn } from '@/types/openapi.gen';

import { getDeals } from './get-deals';
import { dealsKeys } from './query-keys';

export const DEAL_BOARD_URL = '/api/deals/board';
/** Cards a column shows at first, and each "Show more" adds. */
export const BOARD_PAGE = 25;

/** A board column: `count` and `value` (whole dollars) cover every deal of the stage, stage-less
 * ones in qualification; `deals` are its newest `BOARD_PAGE`. */
export type DealColumn = DealBoardColumn;

/** The five board columns, qualification to closed_won. */
export const getDealBoard = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<DealColumn[]>(DEAL_BOARD_URL, { params: { limit: BOARD_PAGE }, signal });

export const getDealBoardQueryOptions = () =>
  queryOptions({ queryKey: dealsKeys.board(), queryFn: ({ signal }) => getDealBoard({ signal }) });

export const useDealBoard = () => useQuery(getDealBoardQueryOptions());

/** A column's deals: the board's first page, then `BOARD_PAGE` more per "Show more". */
export const useDealColumn = (column: DealColumn) =>
  useColumnPages({
    queryKey: dealsKeys.column(column.stage),
    firstPage: column.deals,
    total: column.count,
    fetchPage: (offset, signal) => getDeals({ stage: column.stage, limit: BOARD_PAGE, offset }, { signal }),
  });
