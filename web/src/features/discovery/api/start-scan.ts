import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';
import type { DiscoveryScan } from '@/types/openapi.gen';

export { REGIONS } from '@/lib/rules';

export const SCAN_URL = '/api/discovery/scan';
/** The seed's time-out for a scan request (000 §9). */
export const SCAN_TIMEOUT_MS = 300_000;

export const REVENUE_RANGES = ['2-5M', '5-10M', '10-25M', '25-50M', '50M+'] as const;
export const COMPANY_TYPES = [
  ['bath-shower', 'Bath & Shower'],
  ['kitchen-bath', 'Kitchen & Bath'],
  ['accessible-bath', 'Accessible Bath'],
  ['luxury-bath', 'Luxury Bath'],
  ['plumbing', 'Plumbing'],
  ['roofing', 'Roofing'],
  ['home-improvement', 'Home Improvement'],
] as const;

/** The scan request in the seed's field names (000 §3, §7.3). */
/** `discoverySource`: the search mode (`region_search`, `city_state_search`) and the sources to search, by key. */
export type ScanRequest = DiscoveryScan;

export type ScanAccepted = EnqueueResponse;

export const startScan = (body: ScanRequest): Promise<ScanAccepted> =>
  api.post<ScanAccepted>(SCAN_URL, body, { timeoutMs: SCAN_TIMEOUT_MS });

export const useStartScan = ({ onSuccess, onError }: { onSuccess: (a: ScanAccepted) => void; onError: (e: Error) => void }) =>
  useMutation({ mutationFn: startScan, onSuccess, onError });
