import { useState } from 'react';

import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { DemoBadge } from '@/components/ui/source-badges';
import { RecordLink } from '@/features/records/components/record-link';
import { isExecutive, scoreLabel } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

import { CompanyLine } from './company-line';
import { EmailContactDialog } from './email-contact-dialog';
import { EnrichButton } from './enrich-button';
import { VerifyButton } from './verify-button';

/** A contact in the list with its company: email (a dialog), call, verify, enrich, edit, and its email history; a checkbox when the list selects. */
export function ContactCard({
  contact,
  onEdit,
  onHistory,
  selected,
  onSelect,
}: {
  contact: Contact;
  onEdit: () => void;
  onHistory: () => void;
  selected?: boolean;
  onSelect?: () => void;
}) {
  const name = `${contact.firstName} ${contact.lastName}`;
  const [emailing, setEmailing] = useState(false);
  const noPhone = () =>
    toast({ title: 'No Phone Number', description: 'Phone number not available for this contact.', variant: 'destructive' });
  const action = 'rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50';
  return (
    <li aria-label={name} className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-start justify-between gap-2">
        {onSelect ? (
          <input type="checkbox" className="mt-1 size-4" checked={selected ?? false} onChange={onSelect} aria-label={`Select ${name}`} />
        ) : null}
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold text-slate-900">
            <RecordLink type="contact" id={contact.id}>
              {name}
            </RecordLink>
            <DemoBadge demo={contact.demo} />
          </h2>
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
      <CompanyLine contact={contact} className="mt-2 text-sm" />
      <p className="truncate text-sm text-slate-600">{contact.email ?? 'No email'}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className={action} onClick={() => setEmailing(true)} aria-label={`Email ${name}`}>
          Email
        </button>
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
        <EnrichButton contact={contact} className={`${action} disabled:cursor-wait disabled:opacity-60`} />
        <button type="button" className={action} onClick={onEdit} aria-label={`Edit ${name}`}>
          Edit
        </button>
        <button type="button" className={action} onClick={onHistory} aria-label={`Email history of ${name}`}>
          History
        </button>
      </div>
      {emailing ? <EmailContactDialog contact={contact} onClose={() => setEmailing(false)} /> : null}
    </li>
  );
}
