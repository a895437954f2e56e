import { queryOptions, useQuery } from '@tanstack/react-query';

import { getContacts } from '@/features/contacts/api/get-contacts';
import { api } from '@/lib/api-client';
import { useColumnPages } from '@/lib/use-column-pages';
import type { Contact } from '@/types/api';
import type { LeadStage as LeadStageView } from '@/types/openapi.gen';

import { leadsKeys } from './query-keys';

export const LEAD_BOARD_URL = '/api/leads/board';
/** Cards a column lists at first, and each "Show more" adds; the counts cover every contact in the stage. */
export const BOARD_CARDS_PER_STAGE = 25;

export type LeadStageName = LeadStageView['stage'];

/** A board column: `count`, `avgScore` and `highPriority` cover every contact in the stage. */
export type LeadStage = Omit<LeadStageView, 'contacts'> & {
  contacts: Contact[];
};

export const getLeadBoard = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<LeadStage[]>(LEAD_BOARD_URL, { params: { limit: BOARD_CARDS_PER_STAGE }, signal });

export const getLeadBoardQueryOptions = () =>
  queryOptions({ queryKey: leadsKeys.board(), queryFn: ({ signal }) => getLeadBoard({ signal }) });

export const useLeadBoard = () => useQuery(getLeadBoardQueryOptions());

/** A column's leads: the board's first page, then `BOARD_CARDS_PER_STAGE` more per "Show more"
 * (`GET /api/contacts?status=`, in the board's order). */
export const useLeadColumn = (stage: LeadStage) =>
  useColumnPages({
    queryKey: leadsKeys.column(stage.stage),
    firstPage: stage.contacts,
    total: stage.count,
    fetchPage: (offset, signal) =>
      getContacts({ status: stage.stage, limit: BOARD_CARDS_PER_STAGE, offset }, { signal }),
  });
