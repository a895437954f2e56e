import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { useAdminUser } from '@/features/auth/api/get-admin-user';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { type Suppression, useSuppressions } from '../api/get-suppressions';
import { useLiftSuppression } from '../api/lift-suppression';

const SUPPRESSION_PAGE = 20;
const REASON_LABELS: Record<Suppression['reason'], string> = {
  unsubscribed: 'Unsubscribed',
  hard_bounced: 'Hard bounce',
  spam_reported: 'Spam report',
  manual: 'Added by hand',
};

/** Addresses we never email; an admin can lift one that was forged or a mistake (audited). */
export function SuppressionList() {
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [lifting, setLifting] = useState<Suppression | null>(null);
  const isAdmin = useAdminUser().data?.isAdmin ?? false;
  const list = useSuppressions({ q, limit: SUPPRESSION_PAGE, offset });
  const lift = useLiftSuppression({
    onSuccess: (r) => {
      setLifting(null);
      toast({ title: 'Suppression Lifted', description: `${r.email} can be emailed again.` });
    },
  });
  return (
    <Card
      title="Suppressed Addresses"
      actions={
        <SearchInput
          value={q}
          onSearch={(v) => {
            setQ(v);
            setOffset(0);
          }}
          placeholder="Search addresses"
          aria-label="Search suppressed addresses"
          className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      }
    >
      {list.data ? (
        list.data.items.length === 0 ? (
          <EmptyState title={q ? 'No suppressed address matches' : 'No suppressed addresses'}>
            Unsubscribes, hard bounces and spam reports appear here.
          </EmptyState>
        ) : (
          <div className="space-y-3">
            <ul aria-label="Suppressed addresses" className="divide-y divide-slate-100 text-sm">
              {list.data.items.map((s) => (
                <li key={s.email} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    <span className="font-medium">{s.email}</span>{' '}
                    <span className="text-slate-500">
                      — {REASON_LABELS[s.reason]}
                      {s.source ? ` (${s.source})` : ''} · {formatDateTime(s.createdAt)}
                    </span>
                  </span>
                  {isAdmin ? (
                    <Button variant="secondary" size="sm" onClick={() => setLifting(s)} aria-label={`Lift suppression for ${s.email}`}>
                      Lift
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
            <Pager offset={offset} count={list.data.items.length} total={list.data.total} pageSize={SUPPRESSION_PAGE} onOffsetChange={setOffset} />
          </div>
        )
      ) : list.isError ? (
        <ErrorState title="Could not load the suppression list" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Skeleton rows={2} label="Loading the suppression list" />
      )}
      {lifting ? (
        <ConfirmDialog
          title="Lift this suppression?"
          description={`${lifting.email} will receive email from us again. The audit log records who lifted it.`}
          confirmLabel="Lift suppression"
          pending={lift.isPending}
          error={lift.isError ? errorMessage(lift.error) : undefined}
          onConfirm={() => lift.mutate(lifting.email)}
          onCancel={() => {
            lift.reset();
            setLifting(null);
          }}
        />
      ) : null}
    </Card>
  );
}
