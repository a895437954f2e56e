import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Options } from '@/components/ui/options';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { useContacts, type ContactFilters } from '@/features/contacts/api/get-contacts';
import { useExportContacts } from '@/features/contacts/api/export-contacts';
import { ALL_STATUSES, ContactFormDialog } from '@/features/contacts/components/contact-form-dialog';
import { EmailHistoryDialog } from '@/features/contacts/components/email-history-dialog';
import { ImportContactsDialog } from '@/features/contacts/components/import-contacts-dialog';
import { VerifyButton } from '@/features/contacts/components/verify-button';
import { ApiError } from '@/lib/api-client';
import { isExecutive, REGIONS, scoreLabel } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

const PAGE_SIZE = 50;
const ROLES = ['CEO', 'President', 'Owner', 'Founder', 'VP', 'Director', 'Manager'];
const FILTER_KEYS = ['q', 'role', 'region', 'status'] as const;

type DialogState =
  | { kind: 'add' }
  | { kind: 'edit'; contact: Contact }
  | { kind: 'history'; contact: Contact }
  | { kind: 'import' }
  | null;

function ContactCard({ contact, onEdit, onHistory }: { contact: Contact; onEdit: () => void; onHistory: () => void }) {
  const name = `${contact.firstName} ${contact.lastName}`;
  const noEmail = () =>
    toast({ title: 'No Email Address', description: 'Email address not available for this contact.', variant: 'destructive' });
  const noPhone = () =>
    toast({ title: 'No Phone Number', description: 'Phone number not available for this contact.', variant: 'destructive' });
  const action = 'rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50';
  return (
    <li aria-label={name} className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="font-semibold text-slate-900">{name}</h2>
          <p className="truncate text-sm text-slate-500">{contact.title ?? 'No title'}</p>
        </div>
        <div className="text-right">
          <ScoreBadge score={contact.score} />
          <p className="mt-1 text-xs text-slate-500">{scoreLabel(contact.score)}</p>
        </div>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        <StatusPill status={contact.status} />
        {isExecutive(contact.title) ? <span className="rounded bg-purple-50 px-1.5 text-xs text-purple-700">Executive</span> : null}
        {contact.isVerified ? <span className="text-xs text-emerald-700">Verified</span> : null}
      </div>
      <p className="mt-2 truncate text-sm text-slate-600">{contact.email ?? 'No email'}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {contact.email ? (
          <a className={action} href={`mailto:${contact.email}`}>
            Email
          </a>
        ) : (
          <button type="button" className={action} onClick={noEmail}>
            Email
          </button>
        )}
        {contact.phone ? (
          <a className={action} href={`tel:${contact.phone}`}>
            Call
          </a>
        ) : (
          <button type="button" className={action} onClick={noPhone}>
            Call
          </button>
        )}
        <VerifyButton contact={contact} className={`${action} disabled:cursor-wait disabled:opacity-60`} />
        <button type="button" className={action} onClick={onEdit} aria-label={`Edit ${name}`}>
          Edit
        </button>
        <button type="button" className={action} onClick={onHistory} aria-label={`Email history of ${name}`}>
          History
        </button>
      </div>
    </li>
  );
}

export function ContactsRoute() {
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<DialogState>(null);
  const filters: ContactFilters = {
    q: params.get('q') ?? '',
    role: params.get('role') ?? '',
    region: params.get('region') ?? '',
    status: params.get('status') ?? '',
    limit: PAGE_SIZE,
    offset: Number(params.get('offset')) || 0,
  };
  const contacts = useContacts(filters);
  const exportCsv = useExportContacts({
    onSuccess: () => toast({ title: 'Export Complete', description: 'Contacts downloaded as CSV.', variant: 'success' }),
    onError: (error) =>
      error instanceof ApiError && error.status === 404
        ? toast({ title: 'No Contacts to Export', description: 'Add contacts first or clear filters.', variant: 'destructive' })
        : toast({ title: 'Export Failed', description: error.message, variant: 'destructive' }),
  });

  const update = (key: string, value: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'offset') next.delete('offset');
      return next;
    });
  const filtered = FILTER_KEYS.some((k) => params.get(k));
  const total = contacts.data?.total;

  return (
    <div className="space-y-6">
      <title>Contact Intelligence · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Contact Intelligence</h1>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={exportCsv.isPending}
            onClick={() => exportCsv.mutate({ q: filters.q, role: filters.role, region: filters.region, status: filters.status })}
          >
            {exportCsv.isPending ? 'Exporting…' : `Export (${total ?? 0})`}
          </Button>
          <Button variant="secondary" onClick={() => setDialog({ kind: 'import' })}>
            Import Contacts
          </Button>
          <Button onClick={() => setDialog({ kind: 'add' })}>Add Contact</Button>
        </div>
      </div>
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
          <Button variant="ghost" size="sm" disabled={!filtered} onClick={() => setParams(new URLSearchParams())}>
            Clear All
          </Button>
        </div>
      </form>

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
          <ul aria-label="Contacts" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {contacts.data.items.map((c) => (
              <ContactCard
                key={c.id}
                contact={c}
                onEdit={() => setDialog({ kind: 'edit', contact: c })}
                onHistory={() => setDialog({ kind: 'history', contact: c })}
              />
            ))}
          </ul>
          <Pager
            offset={filters.offset}
            count={contacts.data.items.length}
            total={contacts.data.total}
            pageSize={PAGE_SIZE}
            onOffsetChange={(o) => update('offset', o ? String(o) : '')}
          />
        </>
      )}
      {dialog?.kind === 'add' ? <ContactFormDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'edit' ? <ContactFormDialog contact={dialog.contact} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'history' ? <EmailHistoryDialog contact={dialog.contact} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'import' ? <ImportContactsDialog onClose={() => setDialog(null)} /> : null}
    </div>
  );
}
