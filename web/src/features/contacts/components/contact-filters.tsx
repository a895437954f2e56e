import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { SearchInput } from '@/components/ui/search-input';
import { Select } from '@/components/ui/select';
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
        <Select value={filters.role ?? ''} onValueChange={(v) => update('role', v)} options={[['', 'All roles'], ...ROLES.map((r) => [r, r] as const)]} />
      </Field>
      <Field label="Region">
        <Select value={filters.region ?? ''} onValueChange={(v) => update('region', v)} options={[['', 'All regions'], ...REGIONS]} />
      </Field>
      <Field label="Status">
        <Select
          value={filters.status ?? ''}
          onValueChange={(v) => update('status', v)}
          options={[['', 'All statuses'], ...ALL_STATUSES.map((s) => [s, s.replaceAll('_', ' ')] as const)]}
        />
      </Field>
      <div className="sm:col-span-2 lg:col-span-5">
        <Button variant="ghost" size="sm" disabled={!filtered} onClick={onClear}>
          Clear All
        </Button>
      </div>
    </form>
  );
}
