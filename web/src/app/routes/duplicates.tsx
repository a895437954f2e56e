import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { Select } from '@/components/ui/select';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { TabList } from '@/components/ui/tabs';
import { errorMessage, serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { useDismissDuplicates } from '@/features/merge/api/dismiss-duplicates';
import { useDuplicates } from '@/features/merge/api/get-duplicates';
import { useMergeAll } from '@/features/merge/api/merge-all';
import { MERGE_TOUCHES, useMergeRecords } from '@/features/merge/api/merge-records';
import { duplicateKind, REASONS, type DuplicateRecord, type MergeRecordType } from '@/features/merge/api/types';
import { DuplicateGroupCard } from '@/features/merge/components/duplicate-group-card';

const PAGE = 20;
const TABS = [
  ['company', 'Companies'],
  ['contact', 'Contacts'],
] as const;
const ALL = 'all';

type Pending = { survivor: DuplicateRecord; merged: DuplicateRecord[] };

/**
 * Duplicate companies and contacts (docs/merge.md): suggestion groups by kind (`?type=`,
 * `?reason=`, `?offset=` keep the view), merged one group at a time or every group of a kind as a
 * background job, or marked "not duplicates".
 */
export function DuplicatesRoute() {
  const [search, setSearch] = useSearchParams();
  const recordType: MergeRecordType = search.get('type') === 'contact' ? 'contact' : 'company';
  // The kind of duplicate shown, when the address names one of the record type's.
  const kind = duplicateKind(recordType, search.get('reason'));
  const reason = kind?.reason;
  const offset = Math.max(0, Number.parseInt(search.get('offset') ?? '0', 10) || 0);
  const groups = useDuplicates({ recordType, reason, limit: PAGE, offset });
  const [pending, setPending] = useState<Pending | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);

  const setParams = (change: Record<string, string | null>) =>
    setSearch(
      (params) => {
        for (const [k, v] of Object.entries(change)) {
          if (v === null) params.delete(k);
          else params.set(k, v);
        }
        return params;
      },
      { replace: true },
    );

  const noun = recordType === 'company' ? ['company', 'companies'] : ['contact', 'contacts'];
  const merge = useMergeRecords({
    onSuccess: (outcome) => {
      setPending(null);
      toast({
        title: outcome.merged === 1 ? `Merged 1 ${noun[0]}` : `Merged ${outcome.merged} ${noun[1]}`,
        description: 'Everything it had now belongs to the kept record.',
        variant: 'success',
      });
    },
  });
  const dismiss = useDismissDuplicates({
    onSuccess: () => toast({ title: 'Marked as not duplicates', description: 'They will not be suggested together again.', variant: 'success' }),
    onError: (error) => toast({ title: 'Could not save that', description: serverMessageOr(error, 'Try again'), variant: 'destructive' }),
  });
  const mergeAll = useMergeAll({
    onSuccess: (r) => {
      setConfirmAll(false);
      setJobId(r.jobId);
    },
  });
  const job = useJobOutcome(jobId, {
    invalidate: MERGE_TOUCHES,
    onDone: (j) => {
      setJobId(null);
      const message = (j.result as { message?: string } | null)?.message;
      if (j.status === 'succeeded') toast({ title: 'Duplicates merged', description: message, variant: 'success' });
      else toast({ title: 'The merge stopped', description: j.error ?? 'See Ops for details.', variant: 'destructive' });
    },
    onError: () => setJobId(null),
  });

  const page = groups.data;
  const reasonLabel = REASONS[recordType].find(([r]) => r === reason)?.[1];
  const running = jobId !== null;

  return (
    <div className="space-y-6">
      <title>Duplicates · Prospector</title>
      <PageHeader
        title="Duplicates"
        count={page?.total}
        description="Companies and contacts that look like the same one: keep one, fold the others into it, or mark them as different."
        action={
          reason ? (
            <Button disabled={running || !page || page.total === 0} onClick={() => setConfirmAll(true)}>
              {running ? 'Merging…' : `Merge all: ${reasonLabel?.toLowerCase()}`}
            </Button>
          ) : null
        }
      />
      <Tabs.Root value={recordType} onValueChange={(v) => setParams({ type: v, reason: null, offset: null })}>
        <TabList label="Record type" tabs={TABS} />
        {TABS.map(([value]) => (
          <Tabs.Content key={value} value={value} forceMount hidden={value !== recordType} className="space-y-6">
            {value === recordType ? (
              <>
              <div className="flex flex-wrap items-center gap-2">
                <span id="dup-reason-label" className="text-sm font-medium text-slate-700">
                  Kind of duplicate
                </span>
                <Select
                  aria-labelledby="dup-reason-label"
                  size="sm"
                  value={reason ?? ALL}
                  onValueChange={(v) => setParams({ reason: v === ALL ? null : v, offset: null })}
                  options={[[ALL, 'All kinds'], ...REASONS[recordType]]}
                />
              </div>
              {running ? (
                <p role="status" className="text-sm text-slate-600">
                  {job.data?.progress?.message ?? 'Merging in the background…'}
                </p>
              ) : null}
              {groups.isPending ? (
                <Skeleton rows={4} label="Looking for duplicates" />
              ) : groups.isError ? (
                <ErrorState title="Failed to load duplicates" error={groups.error} onRetry={() => void groups.refetch()} />
              ) : page && page.items.length === 0 ? (
                <EmptyState title={`No duplicate ${noun[1]} found`}>
                  Records that share a website, phone, email or name show up here.
                </EmptyState>
              ) : page ? (
                <>
                  <div className="space-y-4">
                    {page.items.map((g) => (
                      <DuplicateGroupCard
                        key={g.id}
                        group={g}
                        recordType={recordType}
                        busy={merge.isPending || dismiss.isPending || running}
                        onMerge={(survivor, merged) => setPending({ survivor, merged })}
                        onDismiss={(records) => dismiss.mutate({ recordType, ids: records.map((r) => r.id) })}
                      />
                    ))}
                  </div>
                  <Pager
                    offset={offset}
                    count={page.items.length}
                    total={page.total}
                    pageSize={PAGE}
                    onOffsetChange={(o) => setParams({ offset: o === 0 ? null : String(o) })}
                  />
                </>
              ) : null}
              </>
            ) : null}
          </Tabs.Content>
        ))}
      </Tabs.Root>
      {pending ? (
        <ConfirmDialog
          title={`Merge into ${pending.survivor.name}?`}
          description={`${pending.merged.map((r) => r.name).join(', ')} ${pending.merged.length === 1 ? 'is' : 'are'} deleted; ${pending.merged.length === 1 ? 'its' : 'their'} contacts, deals, meetings, emails, notes and tasks move to ${pending.survivor.name}, and empty fields are filled from ${pending.merged.length === 1 ? 'it' : 'them'}. This cannot be undone.`}
          confirmLabel="Merge"
          danger
          pending={merge.isPending}
          error={merge.error ? errorMessage(merge.error) : undefined}
          onConfirm={() =>
            merge.mutate({ recordType, survivorId: pending.survivor.id, mergeIds: pending.merged.map((r) => r.id) })
          }
          onCancel={() => {
            merge.reset();
            setPending(null);
          }}
        />
      ) : null}
      {confirmAll && kind ? (
        <ConfirmDialog
          title={`Merge every group (${reasonLabel?.toLowerCase()})?`}
          description={`A background job merges each of the ${page?.total.toLocaleString() ?? ''} groups into its most complete record (then the one with the most history, then the oldest). Groups with a pair marked as not duplicates are left for you. This cannot be undone.`}
          confirmLabel="Merge all"
          danger
          pending={mergeAll.isPending}
          error={mergeAll.error ? errorMessage(mergeAll.error) : undefined}
          onConfirm={() => mergeAll.mutate(kind)}
          onCancel={() => {
            mergeAll.reset();
            setConfirmAll(false);
          }}
        />
      ) : null}
    </div>
  );
}
