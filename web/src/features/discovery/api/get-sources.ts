import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { discoveryKeys } from './query-keys';

export const DISCOVERY_SOURCES_URL = '/api/discovery/sources';

/** A source this server can search (`GET /api/discovery/sources`). */
export type DiscoverySource = {
  /** What the scan's `discoverySource` names: `osm`, `google_places`, `catalog` or `llm`. */
  source: string;
  label: string;
  /** Searched when the scan names no source. */
  default: boolean;
  /** False for demo data and AI suggestions. */
  verified: boolean;
  attribution: string;
};

export const getDiscoverySources = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<DiscoverySource[]>(DISCOVERY_SOURCES_URL, { signal });

export const discoverySourcesQueryOptions = () =>
  queryOptions({ queryKey: discoveryKeys.sources(), queryFn: ({ signal }) => getDiscoverySources({ signal }), staleTime: 300_000 });

/** The configured sources: the form offers only these. */
export const useDiscoverySources = () => useQuery(discoverySourcesQueryOptions());
