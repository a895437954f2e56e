import type { TableState } from '@/components/ui/data-table';
import type { ContactSortKey } from '@/features/contacts/api/get-contacts';
import { CONTACT_COLUMNS, ContactsTable, contactName } from '@/features/contacts/components/contacts-table';
import type { Contact } from '@/types/api';

type ContactColumnDef = (typeof CONTACT_COLUMNS)[number];

/** A customer's columns: a contact's but the status (every customer's is "customer"). */
export const CUSTOMER_COLUMNS = CONTACT_COLUMNS.filter((c): c is Exclude<ContactColumnDef, { key: 'status' }> => c.key !== 'status');
export type CustomerColumn = (typeof CUSTOMER_COLUMNS)[number]['key'];

/** Customers as a dense table; Quick view opens a customer's details, as on a card. */
export function CustomersTable({
  rows,
  state,
  onOpen,
}: {
  rows: readonly Contact[];
  state: TableState<ContactSortKey, CustomerColumn>;
  onOpen: (customer: Contact) => void;
}) {
  return (
    <ContactsTable
      label="Customers"
      rows={rows}
      columns={CUSTOMER_COLUMNS}
      state={state}
      actions={(c) => (
        <button
          type="button"
          onClick={() => onOpen(c)}
          aria-label={`Quick view ${contactName(c)}`}
          className="text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          Quick view
        </button>
      )}
    />
  );
}
