import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { useContacts, type ContactFilters as Filters } from '@/features/contacts/api/get-contacts';
import { BulkContactActions } from '@/features/contacts/components/bulk-contact-actions';
import { ContactCard } from '@/features/contacts/components/contact-card';
import { ContactFilters } from '@/features/contacts/components/contact-filters';
import { ContactFormDialog } from '@/features/contacts/components/contact-form-dialog';
import { EmailHistoryDialog } from '@/features/contacts/components/email-history-dialog';
import { ExportContactsButton } from '@/features/contacts/components/export-contacts-button';
import { ImportContactsDialog } from '@/features/contacts/components/import-contacts-dialog';
import { AddToSequenceDialog } from '@/features/outreach/components/add-to-sequence-dialog';
import { NewCampaignDialog } from '@/features/outreach/components/new-campaign-dialog';
import { SelectionBar } from '@/features/outreach/components/selection-bar';
import type { Selection } from '@/features/outreach/api/types';
import { formatTotal } from '@/lib/api-client';
import type { Contact } from '@/types/api';

const PAGE_SIZE = 50;
const FILTER_KEYS = ['q', 'role', 'region', 'status'] as const;

type DialogState =
  | { kind: 'add' }
  | { kind: 'edit'; contact: Contact }
  | { kind: 'history'; contact: Contact }
  | { kind: 'import' }
  | { kind: 'enroll' }
  | { kind: 'campaign' }
  | null;

export function ContactsRoute() {
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<DialogState>(null);
  // Contacts ticked by hand, or every contact the filters match (the server resolves those).
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const clearSelection = () => {
    setPicked(new Set());
    setAllMatching(false);
  };
  const filters: Filters = {
    q: params.get('q') ?? '',
    role: params.get('role') ?? '',
    region: params.get('region') ?? '',
    status: params.get('status') ?? '',
    limit: PAGE_SIZE,
    offset: Number(params.get('offset')) || 0,
  };
  const contacts = useContacts(filters);
  const update = (key: string, value: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'offset') next.delete('offset');
      return next;
    });
  const setFilter = (key: string, value: string) => {
    // A selection belongs to the filters it was made under.
    if (key !== 'offset') clearSelection();
    update(key, value);
  };
  const toggle = (id: string) => {
    // Unticking one of "all matching" keeps the rest of this page ticked.
    const from = allMatching ? new Set(contacts.data?.items.map((c) => c.id)) : null;
    setAllMatching(false);
    setPicked((prev) => {
      const next = new Set(from ?? prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  const filtered = FILTER_KEYS.some((k) => params.get(k));
  const total = contacts.data?.total;
  const selection: Selection = allMatching
    ? { contactFilter: { q: filters.q, role: filters.role, status: filters.status, region: filters.region } }
    : { contactIds: [...picked] };
  const selectedCount = allMatching ? (total ?? 0) : picked.size;
  const floor = allMatching && contacts.data?.exact === false ? '+' : '';
  const selectedLabel = `${selectedCount.toLocaleString()}${floor} ${selectedCount === 1 && !floor ? 'contact' : 'contacts'}`;

  return (
    <div className="space-y-6">
      <title>Contact Intelligence · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Contact Intelligence</h1>
        <div className="flex flex-wrap gap-2">
          <ExportContactsButton filters={filters} total={contacts.data ? formatTotal(contacts.data) : undefined} />
          <Button variant="secondary" onClick={() => setDialog({ kind: 'import' })}>
            Import Contacts
          </Button>
          <Button onClick={() => setDialog({ kind: 'add' })}>Add Contact</Button>
        </div>
      </div>
      <ContactFilters
        filters={filters}
        filtered={filtered}
        update={setFilter}
        onClear={() => {
          clearSelection();
          setParams(new URLSearchParams());
        }}
      />
      {selectedCount > 0 ? (
        <SelectionBar count={selectedLabel} onAddToSequence={() => setDialog({ kind: 'enroll' })}
          onNewCampaign={() => setDialog({ kind: 'campaign' })} onClear={clearSelection}>
          <BulkContactActions selection={selection} />
        </SelectionBar>
      ) : null}

      {contacts.isPending ? (
        <Skeleton rows={4} label="Loading contacts" />
      ) : contacts.isError ? (
        <ErrorState title="Failed to load contacts" error={contacts.error} onRetry={() => void contacts.refetch()} />
      ) : contacts.data.items.length === 0 ? (
        <EmptyState title={filtered ? 'No contacts match these filters' : 'No contacts yet'}>
          {filtered ? 'Try clearing a filter.' : 'Add a contact or import a CSV file to get started.'}
        </EmptyState>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setAllMatching(false);
                setPicked((prev) => new Set([...prev, ...contacts.data.items.map((c) => c.id)]));
              }}
            >
              Select page
            </Button>
            <Button size="sm" variant="secondary" aria-pressed={allMatching} onClick={() => setAllMatching(true)}>
              Select all {formatTotal(contacts.data)} matching
            </Button>
          </div>
          <ul aria-label="Contacts" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {contacts.data.items.map((c) => (
              <ContactCard
                key={c.id}
                contact={c}
                onEdit={() => setDialog({ kind: 'edit', contact: c })}
                onHistory={() => setDialog({ kind: 'history', contact: c })}
                selected={allMatching || picked.has(c.id)}
                onSelect={() => toggle(c.id)}
              />
            ))}
          </ul>
          <Pager
            offset={filters.offset}
            count={contacts.data.items.length}
            total={contacts.data.total}
            exact={contacts.data.exact}
            pageSize={PAGE_SIZE}
            onOffsetChange={(o) => setFilter('offset', o ? String(o) : '')}
          />
        </>
      )}
      {dialog?.kind === 'add' ? <ContactFormDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'edit' ? <ContactFormDialog contact={dialog.contact} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'history' ? <EmailHistoryDialog contact={dialog.contact} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'import' ? <ImportContactsDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'campaign' ? (
        <NewCampaignDialog selection={selection} label={selectedLabel} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'enroll' ? (
        <AddToSequenceDialog selection={selection} label={selectedLabel} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}
