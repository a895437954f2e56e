import { useState, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { formatDateTime } from '@/lib/format';
import { scoreLabel } from '@/lib/rules';
import type { Contact } from '@/types/api';

import { companyPlace } from './company-line';
import { EmailContactDialog } from './email-contact-dialog';
import { EnrichButton } from './enrich-button';

/** The look of a secondary Button, for the Enrich button that is a plain button. */
const secondaryButton =
  'inline-flex items-center justify-center rounded-md bg-white px-3.5 py-2 text-sm font-semibold text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset hover:bg-slate-50 disabled:cursor-wait disabled:opacity-60';

/** Verification score colour: changes at 70 and 50 (seed 000 §9). */
export function verificationClass(score: number): string {
  if (score >= 70) return 'text-emerald-700';
  if (score >= 50) return 'text-amber-700';
  return 'text-rose-700';
}

/** The contact detail dialog (seed 000 §2.7) with its company, Email and Enrich, and `actions` for the screen that opened it. */
export function ContactDetailDialog({
  contact,
  onClose,
  actions,
}: {
  contact: Contact;
  onClose: () => void;
  actions?: ReactNode;
}) {
  const [emailing, setEmailing] = useState(false);
  const place = companyPlace(contact);
  const rows: [string, ReactNode][] = [
    ['Company', contact.companyName ? `${contact.companyName}${place ? ` · ${place}` : ''}` : null],
    ['Title', contact.title],
    ['Department', contact.department],
    ['Source', contact.source],
    ['Added', formatDateTime(contact.createdAt)],
    ['Email', contact.email ? <a className="text-indigo-700 hover:underline" href={`mailto:${contact.email}`}>{contact.email}</a> : null],
    ['Phone', contact.phone ? <a className="text-indigo-700 hover:underline" href={`tel:${contact.phone}`}>{contact.phone}</a> : null],
    ['LinkedIn', contact.linkedinUrl ? <a className="text-indigo-700 hover:underline" href={contact.linkedinUrl} target="_blank" rel="noreferrer">Profile</a> : null],
    ['Last contacted', contact.lastContactedAt ? formatDateTime(contact.lastContactedAt) : 'Never'],
    ['Tags', contact.tags.length ? contact.tags.join(', ') : null],
  ];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`${contact.firstName} ${contact.lastName}`} size="lg">
      <div className="space-y-4 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <StatusPill status={contact.status} />
          <ScoreBadge score={contact.score} />
          <span className="text-slate-600">{scoreLabel(contact.score)}</span>
        </div>
        <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1.5">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-slate-500">{label}</dt>
              <dd className="min-w-0 truncate">{value ?? '—'}</dd>
            </div>
          ))}
          <dt className="text-slate-500">Verification</dt>
          <dd>
            {contact.isVerified ? 'Verified' : 'Unverified'}
            {contact.verificationScore != null ? (
              <span className={`ml-2 font-medium ${verificationClass(contact.verificationScore)}`}>
                {contact.verificationScore}%
              </span>
            ) : null}
          </dd>
        </dl>
        {contact.notes ? <p className="rounded-md bg-slate-50 p-3 text-slate-700">{contact.notes}</p> : null}
        <div className="flex flex-wrap items-center justify-end gap-2">
          <Button variant="secondary" onClick={() => setEmailing(true)} aria-label={`Email ${contact.firstName} ${contact.lastName}`}>
            Email
          </Button>
          <EnrichButton contact={contact} className={secondaryButton} />
          {actions}
        </div>
      </div>
      {emailing ? <EmailContactDialog contact={contact} onClose={() => setEmailing(false)} /> : null}
    </Dialog>
  );
}
