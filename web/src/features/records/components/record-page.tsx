import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import { screenHref, type RecordType, type ScreenName } from '@/config/paths';
import { ApiError, fieldErrorsOf, serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { PossibleDuplicates } from '@/features/merge/components/possible-duplicates';

import { recordsKeys } from '../api/query-keys';
import { NoteForm } from './note-form';
import { RelatedPanel } from './related-panel';
import { TasksPanel } from './tasks-panel';
import { Timeline } from './timeline';

const NOUN: Record<RecordType, { title: string; list: ScreenName; listLabel: string }> = {
  company: { title: 'Company', list: 'companies', listLabel: 'Companies' },
  contact: { title: 'Contact', list: 'contacts', listLabel: 'All Contacts' },
  deal: { title: 'Deal', list: 'pipeline', listLabel: 'Pipeline' },
};

/**
 * Saving one field of a record: the server's per-field messages, a toast either way, and the
 * record's timeline refreshed after a change. `save` rejects on failure so the field stays open.
 */
export function useFieldSave<T>(type: RecordType, id: string, mutate: (change: Partial<T>) => Promise<unknown>) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { title } = NOUN[type];
  const save = async (field: keyof T & string, value: T[keyof T]) => {
    setErrors((e) => ({ ...e, [field]: '' }));
    try {
      await mutate({ [field]: value } as Partial<T>);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors((e) => ({ ...e, ...fields }));
      toast({
        title: 'Update Failed',
        description: error instanceof Error ? serverMessageOr(error, `The ${title.toLowerCase()} could not be saved.`) : undefined,
        variant: 'destructive',
      });
      throw error;
    }
    toast({ title: `${title} Updated`, description: 'Your change was saved.', variant: 'success' });
    await queryClient.invalidateQueries({ queryKey: recordsKeys.record(type, id) });
  };
  const clear = (field: string) => setErrors((e) => ({ ...e, [field]: '' }));
  return { save, errors, clear };
}

/** The header's line back to the record's list. */
function BackLink({ type }: { type: RecordType }) {
  const { pathname } = useLocation();
  const { list, listLabel } = NOUN[type];
  return (
    <Link to={screenHref(list, pathname)} className="hover:text-slate-800 hover:underline">
      {listLabel}
    </Link>
  );
}

type RecordPageProps = {
  type: RecordType;
  id: string;
  /** The record's read: pending, failed (404 → not found) or loaded. */
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  name: string | undefined;
  description?: ReactNode;
  action?: ReactNode;
  /** The record's editable fields (a `<dl>` of `EditableField`s). */
  fields: ReactNode;
  /** Cards at the top of the side column (why this score, what the website showed). */
  aside?: ReactNode;
};

/** A record's page: header, fields, note form and timeline; related records and tasks beside them. */
export function RecordPage({ type, id, query, name, description, action, fields, aside }: RecordPageProps) {
  const { title } = NOUN[type];
  if (query.isPending) return <Skeleton rows={4} label={`Loading the ${title.toLowerCase()}`} />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <RecordNotFound type={type} />;
    return (
      <ErrorState title={`Unable to load this ${title.toLowerCase()}`} error={query.error} onRetry={() => void query.refetch()} />
    );
  }
  return (
    <div className="space-y-6">
      <title>{`${name ?? title} · Prospector`}</title>
      <PageHeader eyebrow={<BackLink type={type} />} title={name ?? title} description={description} action={action} />
      {type !== 'deal' ? <PossibleDuplicates type={type} id={id} /> : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card title="Details">
            <dl className="divide-y divide-slate-100">{fields}</dl>
          </Card>
          <NoteForm type={type} id={id} />
          <Timeline type={type} id={id} />
        </div>
        <div className="min-w-0 space-y-6">
          {aside}
          <RelatedPanel type={type} id={id} />
          <TasksPanel type={type} id={id} />
        </div>
      </div>
    </div>
  );
}

export function RecordNotFound({ type }: { type: RecordType }) {
  const { title } = NOUN[type];
  return (
    <div className="flex flex-col items-center gap-3 py-16 text-center">
      <title>{`${title} not found · Prospector`}</title>
      <p className="text-sm font-semibold text-indigo-600">404</p>
      <h1 className="text-2xl font-bold tracking-tight">{title} not found</h1>
      <p className="text-sm text-slate-600">It may have been deleted, or the link is wrong.</p>
      <p className="text-sm font-semibold text-indigo-700">
        Back to <BackLink type={type} />
      </p>
    </div>
  );
}
