import type { ReactNode } from 'react';

import { DataTable, DayCell, type TableState } from '@/components/ui/data-table';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { SourceBadges } from '@/components/ui/source-badges';
import { RecordLink } from '@/features/records/components/record-link';
import type { Company } from '@/types/api';

import type { CompanySortKey } from '../api/get-companies';
import { RevenueButton } from './company-card';

/** The columns a companies table may show (and a user may hide); the name always shows. */
export const COMPANY_COLUMNS = [
  { key: 'industry', label: 'Industry' },
  { key: 'location', label: 'City / State', sort: 'state' },
  { key: 'status', label: 'Status', sort: 'status' },
  { key: 'score', label: 'Score', sort: 'score', numeric: true },
  { key: 'revenue', label: 'Revenue', sort: 'revenue', numeric: true },
  { key: 'employees', label: 'Employees', sort: 'employees', numeric: true },
  { key: 'contacts', label: 'Contacts', numeric: true },
  { key: 'created', label: 'Created', sort: 'created' },
] as const satisfies readonly { key: string; label: string; sort?: CompanySortKey; numeric?: boolean }[];
export type CompanyColumn = (typeof COMPANY_COLUMNS)[number]['key'];

/**
 * Companies as a dense table: the name opens the company's page, the headers ask the server for an
 * order; the revenue opens the edit dialog, as on a card.
 */
export function CompaniesTable({
  rows,
  state,
  onEdit,
  actions,
}: {
  rows: readonly Company[];
  state: TableState<CompanySortKey, CompanyColumn>;
  onEdit: (company: Company) => void;
  actions: (company: Company) => ReactNode;
}) {
  const cells: Record<CompanyColumn, (c: Company) => ReactNode> = {
    industry: (c) => c.industry ?? '—',
    location: (c) => [c.city, c.state].filter(Boolean).join(', ') || '—',
    status: (c) => <StatusPill status={c.status} />,
    score: (c) => <ScoreBadge score={c.score} />,
    revenue: (c) => <RevenueButton company={c} onEdit={() => onEdit(c)} />,
    employees: (c) => c.employees?.toLocaleString() ?? '—',
    contacts: (c) => c.contactCount.toLocaleString(),
    created: (c) => <DayCell iso={c.createdAt} />,
  };
  return (
    <DataTable
      label="Companies"
      rows={rows}
      rowId={(c) => c.id}
      rowName={(c) => c.name}
      first={{
        label: 'Name',
        sort: 'name',
        cell: (c) => (
          <>
            <RecordLink type="company" id={c.id}>
              {c.name}
            </RecordLink>
            <SourceBadges sources={c.sources} />
          </>
        ),
      }}
      columns={COMPANY_COLUMNS.map((c) => ({ ...c, cell: cells[c.key] }))}
      state={state}
      actions={actions}
    />
  );
}
