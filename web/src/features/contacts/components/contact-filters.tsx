import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Options } from '@/components/ui/options';
import { SearchInput } from '@/components/ui/search-input';
import { REGIONS } from '@/lib/rules';

import type { ContactFilters as Filters } from '../api/get-contacts';
import { ALL_STATUSES } from './contact-form-dialog';

const ROLES = ['CEO', 'President', 'Owner', 'Founder', 'VP', 'Director', 'Manager'];

/**
 * Search, role, region and status; `update` sets one filter (empty clears it), `onClear` clears
 * them all (`filtered`: some filter is set).
 */
export function ContactFilters({
  filters,
  filtered,
  update,
  onClear,
}: {
  filters: Filters;
  filtered: boolean;
  update: (key: string, value: string) => void;
  onClear: () => void;
}) {
  return (
    <form role="search" aria-label="Filter contacts" className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-5" onSubmit={(e) => e.preventDefault()}>
      <Field label="Search" className="lg:col-span-2">
        <SearchInput
          className={inputClass}
          placeholder="Name, email or title"
          value={filters.q ?? ''}
          onSearch={(q) => update('q', q)}
        />
      </Field>
      <Field label="Role">
        <select className={inputClass} value={filters.role} onChange={(e) => update('role', e.target.value)}>
          <option value="">All roles</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Region">
        <select className={inputClass} value={filters.region} onChange={(e) => update('region', e.target.value)}>
          <option value="">All regions</option>
          <Options items={REGIONS} />
        </select>
      </Field>
      <Field label="Status">
        <select className={inputClass} value={filters.status} onChange={(e) => update('status', e.target.value)}>
          <option value="">All statuses</option>
          {ALL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
      </Field>
      <div className="sm:col-span-2 lg:col-span-5">
        <Button variant="ghost" size="sm" disabled={!filtered} onClick={onClear}>
          Clear All
        </Button>
      </div>
    </form>
  );
}
