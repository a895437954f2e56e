import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';

import { AUDIT_SHOWN, useAudit } from '../api/get-audit';

/** The last actions taken on the queue: who, what, on which job or kind, when. */
export function AuditPanel() {
  const audit = useAudit();
  return (
    <section aria-labelledby="audit-heading" className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <h2 id="audit-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
        Audit log <span className="text-xs font-normal text-slate-500">(last {AUDIT_SHOWN})</span>
      </h2>
      {audit.isPending ? (
        <div className="p-4">
          <Spinner label="Loading the audit log" />
        </div>
      ) : audit.isError ? (
        <p role="alert" className="p-4 text-sm text-rose-700">
          Could not load the audit log: {errorMessage(audit.error)}
        </p>
      ) : audit.data.length === 0 ? (
        <p className="p-4 text-sm text-slate-500">No actions yet.</p>
      ) : (
        <ol aria-label="Audit entries" className="divide-y divide-slate-100 text-sm">
          {audit.data.map((a) => (
            <li key={a.id} className="px-4 py-2">
              <p>
                <span className="font-mono text-xs">{a.action}</span>{' '}
                {a.target ? <span className="font-mono text-xs text-slate-600">{a.target}</span> : null}
              </p>
              <p className="text-xs text-slate-500">
                {a.actorEmail ?? 'system'} · <time dateTime={a.createdAt}>{formatDateTime(a.createdAt)}</time>
                {a.detail ? ` · ${JSON.stringify(a.detail)}` : ''}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
