import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { screenHref } from '@/config/paths';
import { useSequences } from '@/features/sequences/api/get-sequences';
import { errorMessage } from '@/lib/api-client';

import { useEnrollSelection } from '../api/enroll-selection';
import { useSelectionPreview } from '../api/preview-selection';
import { skippedText, type EnrollResult, type Selection } from '../api/types';

/**
 * "Add to sequence" for a selection: pick a sequence, see who will be enrolled and who is
 * skipped and why (the server's count, with the sequence's rules and today's allowance), enroll.
 */
export function AddToSequenceDialog({ selection, label, onClose }: { selection: Selection; label: string; onClose: () => void }) {
  const { pathname } = useLocation();
  const sequences = useSequences();
  const usable = (sequences.data ?? []).filter((s) => s.status !== 'archived');
  const [sequenceId, setSequenceId] = useState('');
  const chosen = usable.find((s) => s.id === sequenceId);
  const preview = useSelectionPreview(selection, sequenceId || undefined, sequenceId !== '');
  const [result, setResult] = useState<EnrollResult | null>(null);
  const enroll = useEnrollSelection({ onSuccess: setResult });
  const sequenceHref = screenHref('emailSequences', pathname, chosen ? `?sequence=${encodeURIComponent(chosen.id)}&section=enrollments` : '');

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Add to sequence" description={label}>
      {result ? (
        <div className="space-y-3" role="status" aria-label="Enrollment result">
          <p className="font-medium text-slate-900">
            Enrolled {result.enrolled.toLocaleString()} of {result.selected.toLocaleString()} in {chosen?.name ?? 'the sequence'}.
          </p>
          {skippedText(result.skipped) ? <p className="text-sm text-slate-600">Skipped: {skippedText(result.skipped)}.</p> : null}
          <div className="flex items-center justify-end gap-3">
            <Link className="text-sm font-semibold text-indigo-700 hover:underline" to={sequenceHref}>
              Open the sequence
            </Link>
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (sequenceId) enroll.mutate({ sequenceId, selection });
          }}
        >
          <Field label="Sequence">
            <Select
              value={sequenceId}
              onValueChange={setSequenceId}
              disabled={sequences.isPending}
              placeholder={sequences.isPending ? 'Loading sequences…' : 'Choose a sequence'}
              options={usable.map((s) => [s.id, `${s.name} (${s.status})`] as const)}
            />
          </Field>
          {sequences.isSuccess && usable.length === 0 ? (
            <p className="text-sm text-slate-600">
              No sequences yet. <Link className="font-semibold text-indigo-700 hover:underline" to={screenHref('emailSequences', pathname)}>Create one</Link> first.
            </p>
          ) : null}
          {chosen && chosen.status !== 'active' ? (
            <p className="text-sm text-amber-800">This sequence is {chosen.status}: contacts wait in it until it is active.</p>
          ) : null}
          {preview.isFetching && !preview.data ? <p className="text-sm text-slate-500">Counting who will be enrolled…</p> : null}
          {preview.isError ? <p className="text-sm text-red-700">{errorMessage(preview.error)}</p> : null}
          {sequenceId && preview.data ? (
            <div aria-label="Who will be enrolled" className="rounded-md bg-slate-50 p-3 text-sm">
              <p className="font-medium text-slate-900">
                {preview.data.selected.toLocaleString()} selected: {preview.data.reachable.toLocaleString()} will be enrolled.
              </p>
              {skippedText(preview.data.skipped) ? <p className="text-slate-600">Skipped: {skippedText(preview.data.skipped)}.</p> : null}
            </div>
          ) : null}
          {enroll.isError ? <p className="text-sm text-red-700">{errorMessage(enroll.error)}</p> : null}
          <div className="flex items-center justify-end gap-3">
            <Button type="button" variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!sequenceId || enroll.isPending || !preview.data || preview.data.reachable === 0}>
              {enroll.isPending ? 'Enrolling…' : `Enroll ${preview.data?.reachable.toLocaleString() ?? ''}`.trim()}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
