import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { appHref } from '@/config/paths';
import { formatDateTime } from '@/lib/format';

import type { DuplicateGroup, DuplicateRecord, MergeRecordType } from '../api/types';

type Props = {
  group: DuplicateGroup;
  recordType: MergeRecordType;
  /** Asks to merge `mergeIds` into `survivor` (the screen confirms first). */
  onMerge: (survivor: DuplicateRecord, merged: DuplicateRecord[]) => void;
  onDismiss: (records: DuplicateRecord[]) => void;
  busy?: boolean;
};

/** What identifies a record at a glance: contact details, place, company. */
function details(r: DuplicateRecord, recordType: MergeRecordType): string {
  const place = [r.city, r.state].filter(Boolean).join(', ');
  const parts =
    recordType === 'company'
      ? [r.website, r.phone, place]
      : [r.email, r.phone, r.title, r.companyName];
  return parts.filter(Boolean).join(' · ') || 'No contact details';
}

function history(r: DuplicateRecord, recordType: MergeRecordType): string {
  const noun = recordType === 'company' ? ['contact', 'contacts'] : ['deal or email', 'deals and emails'];
  return `${r.related.toLocaleString()} ${r.related === 1 ? noun[0] : noun[1]}`;
}

/**
 * One suggestion: the records that share a key, the one to keep (a radio) and those to fold into
 * it (checkboxes, all by default), with Merge and "Not duplicates".
 */
export function DuplicateGroupCard({ group, recordType, onMerge, onDismiss, busy = false }: Props) {
  const { pathname } = useLocation();
  const records = group.records;
  const [keep, setKeep] = useState(records[0]?.id ?? '');
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const survivor = records.find((r) => r.id === keep) ?? records[0];
  const merged = records.filter((r) => r.id !== survivor?.id && !left.has(r.id));
  const headingId = `dup-${group.id.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const hidden = group.count - records.length;

  const toggle = (id: string) =>
    setLeft((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section aria-labelledby={headingId} className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-semibold text-slate-900">
          {group.label}
          <span className="ml-2 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">
            {group.count.toLocaleString()} records
          </span>
        </h2>
      </div>
      <fieldset>
        <legend className="sr-only">Record to keep</legend>
        <ul className="divide-y divide-slate-100">
          {records.map((r) => {
            const isKept = r.id === survivor?.id;
            return (
              <li key={r.id} className="flex flex-wrap items-start gap-3 py-2">
                <label className="flex items-center gap-1.5 text-sm text-slate-700">
                  <input
                    type="radio"
                    name={headingId}
                    checked={isKept}
                    onChange={() => setKeep(r.id)}
                    aria-label={`Keep ${r.name}`}
                  />
                  Keep
                </label>
                <label className="flex items-center gap-1.5 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    disabled={isKept}
                    checked={!isKept && !left.has(r.id)}
                    onChange={() => toggle(r.id)}
                    aria-label={`Merge ${r.name}`}
                  />
                  Merge
                </label>
                <div className="min-w-0 flex-1 basis-48">
                  <Link to={appHref(r.href, pathname)} className="font-medium break-words text-indigo-700 hover:underline">
                    {r.name}
                  </Link>
                  {isKept ? <span className="ml-2 text-xs font-semibold text-emerald-700">Stays</span> : null}
                  <p className="text-sm break-words text-slate-600">{details(r, recordType)}</p>
                  <p className="text-xs text-slate-500">
                    {history(r, recordType)} · added {formatDateTime(r.createdAt)}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      </fieldset>
      {hidden > 0 ? <p className="mt-2 text-xs text-slate-500">And {hidden.toLocaleString()} more with the same key.</p> : null}
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => onDismiss(records)}>
          Not duplicates
        </Button>
        <Button size="sm" disabled={busy || !survivor || merged.length === 0} onClick={() => survivor && onMerge(survivor, merged)}>
          {merged.length > 1 ? `Merge ${merged.length} into the kept record` : 'Merge into the kept record'}
        </Button>
      </div>
    </section>
  );
}
