import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Pager } from '@/components/ui/pager';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';
import { formatWhen } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { ENROLLMENTS_PAGE, useEnrollments } from '../api/get-enrollments';
import { useUnenroll } from '../api/enrollments';
import { ENROLLMENT_STATUSES, type Enrollment } from '../api/types';

const words = (s: string | null | undefined) => (s ? s.replaceAll('_', ' ') : '—');

type Props = {
  sequenceId: string;
  status: string;
  offset: number;
  onChange: (next: { status: string; offset: number }) => void;
};

/** A sequence's enrollments, soonest next send first: filter by status, page, unenroll (after asking). */
export function EnrollmentsTable({ sequenceId, status, offset, onChange }: Props) {
  const page = useEnrollments(sequenceId, { status, offset });
  const [leaving, setLeaving] = useState<Enrollment | null>(null);
  const unenroll = useUnenroll({
    onSuccess: () => {
      toast({ title: 'Contact Unenrolled', description: leaving?.contactName, variant: 'success' });
      setLeaving(null);
    },
  });
  let body;
  if (page.isPending) body = <Skeleton rows={2} label="Loading enrollments" />;
  else if (page.isError) body = <ErrorState title="Could not load the enrollments" error={page.error} onRetry={() => page.refetch()} />;
  else if (page.data.items.length === 0)
    body = <EmptyState title={status ? `No ${status} enrollments` : 'No one is enrolled yet'}>Enroll contacts to start this sequence.</EmptyState>;
  else
    body = (
      <>
        <div className="overflow-x-auto rounded-lg ring-1 ring-slate-200">
          <table aria-label="Enrollments" className="min-w-full divide-y divide-slate-200 bg-white text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">Contact</th>
                <th scope="col" className="px-3 py-2">Status</th>
                <th scope="col" className="px-3 py-2">Current step</th>
                <th scope="col" className="px-3 py-2">Next send</th>
                <th scope="col" className="px-3 py-2">Variant</th>
                <th scope="col" className="px-3 py-2">Exit reason</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.data.items.map((e) => (
                <tr key={e.id}>
                  <td className="px-3 py-2">
                    <span className="font-medium">{e.contactName || '—'}</span>
                    <span className="block text-xs text-slate-500">{e.email ?? 'no email'}</span>
                  </td>
                  <td className="px-3 py-2">{e.status}</td>
                  <td className="px-3 py-2">{e.currentStepName ?? (e.status === 'active' ? 'Finishing' : '—')}</td>
                  <td className="px-3 py-2">{e.status === 'active' ? formatWhen(e.nextActionAt) : '—'}</td>
                  <td className="px-3 py-2">{e.variant ?? '—'}</td>
                  <td className="px-3 py-2">{words(e.exitReason)}</td>
                  <td className="px-3 py-2 text-right">
                    {e.status === 'active' ? (
                      <Button variant="ghost" size="sm" onClick={() => setLeaving(e)}>
                        Unenroll <span className="sr-only">{e.contactName || e.email}</span>
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager
          offset={offset}
          count={page.data.items.length}
          total={page.data.total}
          pageSize={ENROLLMENTS_PAGE}
          onOffsetChange={(o) => onChange({ status, offset: o })}
        />
      </>
    );
  return (
    <section aria-label="Enrollments" className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="font-semibold">Enrollments{page.data ? ` (${page.data.total.toLocaleString()})` : ''}</h2>
        <Field label="Enrollment status" className="w-48">
          <Select
            value={status}
            onValueChange={(s) => onChange({ status: s, offset: 0 })}
            options={[['', 'All'], ...ENROLLMENT_STATUSES.map((s) => [s, s] as const)]}
          />
        </Field>
      </div>
      {body}
      {leaving ? (
        <ConfirmDialog
          title="Unenroll this contact?"
          description={`${leaving.contactName || leaving.email || 'This contact'} gets no more messages from this sequence.`}
          confirmLabel="Unenroll"
          danger
          pending={unenroll.isPending}
          error={unenroll.isError ? errorMessage(unenroll.error) : undefined}
          onConfirm={() => unenroll.mutate({ sequenceId, enrollmentId: leaving.id })}
          onCancel={() => setLeaving(null)}
        />
      ) : null}
    </section>
  );
}
