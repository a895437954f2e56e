import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Contact } from '@/types/api';

import { leadsKeys } from './query-keys';

export const LEAD_BOARD_URL = '/api/leads/board';
/** Cards listed per column; the counts cover every contact in the stage. */
export const BOARD_CARDS_PER_STAGE = 100;

export type LeadStage = {
  stage: 'new_lead' | 'email_sent' | 'meeting_scheduled' | 'qualified';
  title: string;
  count: number;
  avgScore: number;
  highPriority: number;
  contacts: Contact[];
};

export const getLeadBoard = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<LeadStage[]>(LEAD_BOARD_URL, { params: { limit: BOARD_CARDS_PER_STAGE }, signal });

export const getLeadBoardQueryOptions = () =>
  queryOptions({ queryKey: leadsKeys.board(), queryFn: ({ signal }) => getLeadBoard({ signal }) });

export const useLeadBoard = () => useQuery(getLeadBoardQueryOptions());
