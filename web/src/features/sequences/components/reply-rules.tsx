import { EmptyState } from '@/components/ui/states';

import { useReplyRules } from '../api/get-reply-rules';

/** The reply rules, with how often each fired. */
export function ReplyRules() {
  const rules = useReplyRules();
  return rules.data?.length ? (
    <ul aria-label="Reply rules" className="space-y-2">
      {rules.data.map((r) => (
        <li key={r.id} className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
          <span className="font-medium">{r.name}</span> · {r.triggerType.replaceAll('_', ' ')} · triggered {r.timesTriggered}{' '}
          {r.isActive ? <span className="rounded bg-emerald-100 px-1.5 text-xs text-emerald-800">Active</span> : null}
        </li>
      ))}
    </ul>
  ) : (
    <EmptyState title="No reply rules yet" />
  );
}
