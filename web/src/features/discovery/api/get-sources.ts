import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { SourceView } from '@/types/openapi.gen';

import { discoveryKeys } from './query-keys';

export const DISCOVERY_SOURCES_URL = '/api/discovery/sources';

/** A source this server can search (`GET /api/discovery/sources`). */
/**
 * `source`: what the scan's `discoverySource` names (`osm`, `google_places`, `catalog` or `llm`);
 * `default`: searched when the scan names none; `verified` is false for demo data and AI suggestions.
 */
export type DiscoverySource = SourceView;

export const getDiscoverySources = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<DiscoverySource[]>(DISCOVERY_SOURCES_URL, { signal });

export const discoverySourcesQueryOptions = () =>
  queryOptions({ queryKey: discoveryKeys.sources(), queryFn: ({ signal }) => getDiscoverySources({ signal }), staleTime: 300_000 });

/** The configured sources: the form offers only these. */
export const useDiscoverySources = () => useQuery(discoverySourcesQueryOptions());
