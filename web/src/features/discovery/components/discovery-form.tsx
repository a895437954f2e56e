import { useForm, useWatch } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { FormSelect } from '@/components/ui/select';
import { parseCityState } from '@/lib/rules';
import { toast } from '@/stores/toasts';

import { useDiscoverySources } from '../api/get-sources';
import { COMPANY_TYPES, REGIONS, REVENUE_RANGES, type ScanRequest } from '../api/start-scan';
import { downloadResultCsv } from './export-results';
import type { ScanResult } from './scan-progress';

export const MISSING_PARAMETERS = 'Please select all search parameters or enter a company name to search.';
export const INVALID_CITY_STATE =
  "Please enter a valid city and state (e.g., 'Dallas, TX' or 'Dallas Texas') or just a state name.";

const SEARCH_MODES = [
  ['', 'Any'],
  ['region_search', 'Region search'],
  ['city_state_search', 'City/state search'],
] as const;

const SWITCHES = [
  ['marketIntelligence', 'Market Intelligence', 'Revenue spread, company types and average score of what is found'],
  ['competitorAnalysis', 'Competitive Analysis', 'Partnership opportunity per company'],
  ['territoryOptimization', 'Territory Optimization', 'Companies and high-quality leads per city'],
  ['leadQualification', 'AI Lead Qualification', 'A qualification score per company'],
] as const;

type FormValues = {
  region: string;
  revenueRange: string;
  companyType: string;
  companyName: string;
  cityState: string;
  /** The search mode; empty: follows from whether a city or state is given. */
  discoverySource: string;
  /** Keys of the sources to search; none: the server's defaults. */
  sources: string[];
  marketIntelligence: boolean;
  competitorAnalysis: boolean;
  territoryOptimization: boolean;
  leadQualification: boolean;
};

/** The request for the form, or the seed's toast (title, text) explaining why there is none. */
export function toScanRequest(v: FormValues): ScanRequest | { title: string; message: string } {
  const companyName = v.companyName.trim();
  if (!companyName && (!v.region || !v.revenueRange || !v.companyType)) {
    return { title: 'Missing Parameters', message: MISSING_PARAMETERS };
  }
  let city = '';
  let state = '';
  if (v.cityState.trim()) {
    const place = parseCityState(v.cityState);
    if (!place) return { title: 'Invalid City/State', message: INVALID_CITY_STATE };
    city = place.city ?? '';
    state = place.state ?? '';
  }
  const enhancedMode = v.marketIntelligence || v.competitorAnalysis || v.territoryOptimization || v.leadQualification;
  return {
    region: v.region,
    revenueRange: v.revenueRange,
    companyType: v.companyType,
    companyName,
    city,
    state,
    discoverySource: [v.discoverySource, ...v.sources].filter(Boolean),
    marketIntelligence: v.marketIntelligence,
    competitorAnalysis: v.competitorAnalysis,
    territoryOptimization: v.territoryOptimization,
    leadQualification: v.leadQualification,
    enhancedMode,
  };
}

/**
 * The search: region, revenue and type (or a company name), an optional city/state, and the
 * enhanced-analysis switches. A form the seed refuses shows its toast and starts nothing.
 */
export function DiscoveryForm({
  pending,
  result,
  onStart,
}: {
  /** A scan is being started or running. */
  pending: boolean;
  /** The finished scan's result, for Export. */
  result: ScanResult | null;
  onStart: (request: ScanRequest) => void;
}) {
  const offered = useDiscoverySources();
  const { register, handleSubmit, control } = useForm<FormValues>({
    defaultValues: {
      region: '',
      revenueRange: '',
      companyType: '',
      companyName: '',
      cityState: '',
      discoverySource: '',
      sources: [],
      marketIntelligence: false,
      competitorAnalysis: false,
      territoryOptimization: false,
      leadQualification: false,
    },
  });
  const submit = handleSubmit((values) => {
    const request = toScanRequest(values);
    if ('message' in request) {
      toast({ title: request.title, description: request.message, variant: 'destructive' });
      return;
    }
    onStart(request);
  });
  const switches = useWatch({ control, name: SWITCHES.map(([name]) => name) });
  const enhanced = SWITCHES.filter((_, i) => switches[i]);

  return (
    <form aria-label="Discovery search" onSubmit={submit} noValidate className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field label="Target region">
          <FormSelect control={control} name="region" placeholder="Select a region" options={REGIONS} />
        </Field>
        <Field label="Revenue range">
          <FormSelect
            control={control}
            name="revenueRange"
            placeholder="Select a range"
            options={REVENUE_RANGES.map((r) => [r, `$${r}`] as const)}
          />
        </Field>
        <Field label="Company type">
          <FormSelect control={control} name="companyType" placeholder="Select a type" options={COMPANY_TYPES} />
        </Field>
        <Field label="Company name (optional)">
          <input className={inputClass} autoComplete="off" {...register('companyName')} />
        </Field>
        <Field label="City / state (optional)" hint="e.g. Dallas, TX or Dallas Texas, or a state">
          <input className={inputClass} autoComplete="off" {...register('cityState')} />
        </Field>
        <Field label="Search by">
          <FormSelect control={control} name="discoverySource" options={SEARCH_MODES} />
        </Field>
      </div>
      <fieldset className="rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold">Sources</legend>
        {offered.data ? (
          <>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {offered.data.map((s) => (
                <label key={s.source} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" className="size-4" value={s.source} {...register('sources')} />
                  {s.label}
                  {s.default ? <span className="text-xs text-slate-500"> (default)</span> : null}
                </label>
              ))}
            </div>
            <p className="mt-2 text-xs text-slate-500">None ticked: the default sources are searched.</p>
          </>
        ) : (
          <p className="text-sm text-slate-500">{offered.isError ? 'The list of sources could not be loaded; the default sources will be searched.' : 'Loading sources…'}</p>
        )}
      </fieldset>
      <fieldset className="rounded-lg border border-violet-200 bg-violet-50/40 p-3">
        <legend className="px-1 text-sm font-semibold">
          Enhanced AI Discovery <span className="ml-1 rounded bg-violet-100 px-1.5 text-xs text-violet-800">Premium Feature</span>
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {SWITCHES.map(([name, label]) => (
            <label key={name} className="flex items-center gap-2 text-sm">
              <input type="checkbox" role="switch" className="size-4 accent-violet-600" {...register(name)} />
              {label}
            </label>
          ))}
        </div>
        {enhanced.length > 0 ? (
          <ul aria-label="Enhanced analysis preview" className="mt-3 list-disc space-y-1 pl-5 text-sm text-violet-900">
            {enhanced.map(([name, label, what]) => (
              <li key={name}>
                <span className="font-medium">{label}:</span> {what}
              </li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Scanning...' : 'Start Discovery'}
        </Button>
        <Button type="button" variant="secondary" disabled={!result} onClick={() => result && downloadResultCsv(result)}>
          Export
        </Button>
      </div>
    </form>
  );
}
