import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { errorMessage, fieldErrorsOf, serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useDeleteView, useSaveView, useViews, type SavedView, type ViewScreen, type ViewState } from '../api/views';

/**
 * "Views": the signed-in user's saved settings of a table (filters, columns, sort), kept on the
 * server so they follow the user to any browser. Apply one, save the current settings under a
 * name (the same name replaces that view), or delete one.
 */
export function SavedViews({ screen, current, onApply }: { screen: ViewScreen; current: () => ViewState; onApply: (state: ViewState) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-md bg-white px-2.5 py-1 text-xs font-semibold text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        Views
      </button>
      {open ? (
        <Dialog open onOpenChange={setOpen} title="Saved views" description="Your own settings of this table: filters, columns and order.">
          <ViewsBody
            screen={screen}
            current={current}
            onApply={(v) => {
              onApply(v.state);
              setOpen(false);
              toast({ title: 'View Applied', description: `Showing “${v.name}”.`, variant: 'success' });
            }}
          />
        </Dialog>
      ) : null}
    </>
  );
}

function ViewsBody({ screen, current, onApply }: { screen: ViewScreen; current: () => ViewState; onApply: (view: SavedView) => void }) {
  const views = useViews(screen);
  const save = useSaveView(screen);
  const remove = useDeleteView(screen);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    if (!name.trim()) {
      setError('Name the view');
      return;
    }
    setError(null);
    save.mutate(
      { name: name.trim(), state: current() },
      {
        onSuccess: (v) => {
          setName('');
          toast({ title: 'View Saved', description: `“${v.name}” keeps these settings.`, variant: 'success' });
        },
        onError: (e) => setError(fieldErrorsOf(e).name ?? serverMessageOr(e, 'Failed to save the view')),
      },
    );
  };

  return (
    <div className="space-y-4 text-sm">
      {views.isPending ? (
        <p className="text-slate-500">Loading views…</p>
      ) : views.isError ? (
        <p role="alert" className="text-rose-700">
          Could not load your views: {errorMessage(views.error)}
        </p>
      ) : views.data.length === 0 ? (
        <p className="text-slate-500">No saved views yet.</p>
      ) : (
        <ul aria-label="Your views" className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {views.data.map((v) => (
            <li key={v.id} className="flex items-center justify-between gap-2 px-3 py-2">
              <span className="font-medium text-slate-900">{v.name}</span>
              <span className="flex gap-1">
                <Button size="sm" onClick={() => onApply(v)} aria-label={`Apply ${v.name}`}>
                  Apply
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Delete ${v.name}`}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(v.id, {
                      onError: (e) => toast({ title: 'Delete Failed', description: serverMessageOr(e, 'Failed to delete the view'), variant: 'destructive' }),
                    })
                  }
                >
                  Delete
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <form
        aria-label="Save view"
        noValidate
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Field label="Save the current settings as" error={error ?? undefined} className="min-w-48 flex-1">
          <input className={inputClass} value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder="e.g. Overdue, largest first" />
        </Field>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save view'}
        </Button>
      </form>
    </div>
  );
}
