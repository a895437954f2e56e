import type { ReactNode } from 'react';

import { DataTable, DayCell, type DataColumn, type TableState } from '@/components/ui/data-table';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { DemoBadge } from '@/components/ui/source-badges';
import { RecordLink } from '@/features/records/components/record-link';
import type { Contact } from '@/types/api';

import type { ContactSortKey } from '../api/get-contacts';
import { CompanyLine } from './company-line';

/** The columns a contacts table may show (and a user may hide); the name always shows. */
export const CONTACT_COLUMNS = [
  { key: 'title', label: 'Title', cell: (c) => c.title ?? '—' },
  { key: 'company', label: 'Company', sort: 'company', cell: (c) => <CompanyLine contact={c} /> },
  { key: 'status', label: 'Status', sort: 'status', cell: (c) => <StatusPill status={c.status} /> },
  { key: 'score', label: 'Score', sort: 'score', numeric: true, cell: (c) => <ScoreBadge score={c.score} /> },
  { key: 'email', label: 'Email', cell: (c) => c.email ?? '—' },
  { key: 'phone', label: 'Phone', cell: (c) => c.phone ?? '—' },
  { key: 'lastContacted', label: 'Last contacted', sort: 'lastContacted', cell: (c) => <DayCell iso={c.lastContactedAt} /> },
  { key: 'created', label: 'Created', sort: 'created', cell: (c) => <DayCell iso={c.createdAt} /> },
] as const satisfies readonly DataColumn<Contact, string, ContactSortKey>[];
export type ContactColumn = (typeof CONTACT_COLUMNS)[number]['key'];

export const contactName = (c: Contact) => `${c.firstName} ${c.lastName}`;

/**
 * Contacts (or customers, who are contacts) as a dense table: the name opens the contact's page,
 * the headers ask the server for an order.
 */
export function ContactsTable<C extends ContactColumn>({
  label,
  rows,
  columns,
  state,
  actions,
}: {
  label: string;
  rows: readonly Contact[];
  columns: readonly DataColumn<Contact, C, ContactSortKey>[];
  state: TableState<ContactSortKey, C>;
  actions?: (contact: Contact) => ReactNode;
}) {
  return (
    <DataTable
      label={label}
      rows={rows}
      rowId={(c) => c.id}
      rowName={contactName}
      first={{
        label: 'Name',
        sort: 'name',
        cell: (c) => (
          <>
            <RecordLink type="contact" id={c.id}>
              {contactName(c)}
            </RecordLink>
            <DemoBadge demo={c.demo} />
          </>
        ),
      }}
      columns={columns}
      state={state}
      actions={actions}
    />
  );
}
