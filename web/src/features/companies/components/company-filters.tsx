import { inputClass, Field } from '@/components/ui/field';
import { SearchInput } from '@/components/ui/search-input';
import { Select } from '@/components/ui/select';

import type { CompanyStatus } from '@/types/api';

import type { CompanyFilters as Filters } from '../api/get-companies';

export const COMPANY_STATUSES = [
  'discovered',
  'prospect',
  'qualified',
  'contacted',
  'interested',
  'partner',
  'not_interested',
] as const satisfies readonly CompanyStatus[];
const STATES: readonly (readonly [string, string])[] = [
  ['TX', 'Texas'],
  ['LA', 'Louisiana'],
  ['AR', 'Arkansas'],
  ['MS', 'Mississippi'],
  ['NM', 'New Mexico'],
  ['OK', 'Oklahoma'],
  ['AZ', 'Arizona'],
];
export const BANDS = [
  ['high', 'High (80+)'],
  ['medium', 'Medium (60–79)'],
  ['low', 'Low (below 60)'],
] as const;

/** Search, state, status and score band; `update` sets one filter (empty clears it). */
export function CompanyFilters({ filters, update }: { filters: Filters; update: (key: string, value: string) => void }) {
  return (
    <form role="search" aria-label="Filter companies" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" onSubmit={(e) => e.preventDefault()}>
      <Field label="Search">
        <SearchInput
          className={inputClass}
          placeholder="Name, industry, city or state"
          value={filters.q ?? ''}
          onSearch={(q) => update('q', q)}
        />
      </Field>
      <Field label="State">
        <Select value={filters.state ?? ''} onValueChange={(v) => update('state', v)} options={[['', 'All states'], ...STATES]} />
      </Field>
      <Field label="Status">
        <Select
          value={filters.status ?? ''}
          onValueChange={(v) => update('status', v)}
          options={[['', 'All statuses'], ...COMPANY_STATUSES.map((s) => [s, s.replaceAll('_', ' ')] as const)]}
        />
      </Field>
      <Field label="Score">
        <Select value={filters.scoreBand ?? ''} onValueChange={(v) => update('scoreBand', v)} options={[['', 'All scores'], ...BANDS]} />
      </Field>
    </form>
  );
}
