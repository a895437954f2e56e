import { inputClass, Field } from '@/components/ui/field';
import { SearchInput } from '@/components/ui/search-input';

import type { CompanyFilters as Filters } from '../api/get-companies';

export const COMPANY_STATUSES = ['discovered', 'prospect', 'qualified', 'contacted', 'interested', 'partner', 'not_interested'];
const STATES = [
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
        <select className={inputClass} value={filters.state} onChange={(e) => update('state', e.target.value)}>
          <option value="">All states</option>
          {STATES.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Status">
        <select className={inputClass} value={filters.status} onChange={(e) => update('status', e.target.value)}>
          <option value="">All statuses</option>
          {COMPANY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Score">
        <select className={inputClass} value={filters.scoreBand} onChange={(e) => update('scoreBand', e.target.value)}>
          <option value="">All scores</option>
          {BANDS.map(([band, label]) => (
            <option key={band} value={band}>
              {label}
            </option>
          ))}
        </select>
      </Field>
    </form>
  );
}
