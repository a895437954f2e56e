import { RecordLink } from '@/features/records/components/record-link';
import type { Contact } from '@/types/api';

/** "Austin, TX" from the contact's company, or null. */
export function companyPlace(contact: Contact): string | null {
  const place = [contact.companyCity, contact.companyState].filter(Boolean).join(', ');
  return place || null;
}

/** The contact's company on a card: its name and where it is, or "No company". */
export function CompanyLine({ contact, className = '' }: { contact: Contact; className?: string }) {
  const place = companyPlace(contact);
  return (
    <p className={`truncate text-slate-600 ${className}`}>
      {contact.companyName ? (
        <>
          {contact.companyId ? (
            <RecordLink type="company" id={contact.companyId} className="font-medium text-slate-700 hover:underline">
              {contact.companyName}
            </RecordLink>
          ) : (
            <span className="font-medium text-slate-700">{contact.companyName}</span>
          )}
          {place ? <span className="text-slate-500"> · {place}</span> : null}
        </>
      ) : (
        <span className="text-slate-500">No company</span>
      )}
    </p>
  );
}
