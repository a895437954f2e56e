import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { dealsKeys } from './query-keys';

export type ProspectCompany = {
  id: string;
  name: string;
  industry: string | null;
  city: string | null;
  state: string | null;
  revenue: string | null;
  score: number;
  prospectScore: number;
  status: string;
  isDeal: boolean;
};

export type ProspectContact = {
  id: string;
  firstName: string;
  lastName: string;
  title: string | null;
  email: string | null;
  phone: string | null;
  status: string;
  score: number;
  companyId: string | null;
  companyName: string | null;
};

/** The first 8 company prospects and 6 contact prospects, chosen by the server. */
export type Prospects = { companies: ProspectCompany[]; contacts: ProspectContact[] };

export const getProspects = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<Prospects>('/api/pipeline/prospects', { signal });

export const getProspectsQueryOptions = () =>
  queryOptions({ queryKey: dealsKeys.prospects(), queryFn: ({ signal }) => getProspects({ signal }) });

export const useProspects = () => useQuery(getProspectsQueryOptions());
