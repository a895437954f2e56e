import { ChevronRight, Pencil, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent, type SubmitEvent } from 'react';

import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Field, inputClass } from '@/components/ui/field';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import type { RecordType } from '@/config/paths';
import { fieldErrorsOf, serverMessageOr } from '@/lib/api-client';
import { formatDay, formatRelativeTime, todayIso } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useCreateTask } from '../api/create-task';
import { useTasks } from '../api/get-tasks';
import { useDeleteTask, useUpdateTask, type TaskChange } from '../api/update-task';
import type { Task } from '../api/types';

type RecordRef = { entityType: RecordType; entityId: string };

/** Seed wording of docs/records.md "Tasks", also checked here so an empty title is not sent. */
const TITLE_REQUIRED = 'Task title is required';

/**
 * A task's title and due date edited in place: Enter or Save sends only what changed
 * (`PATCH /api/tasks/{id}`), Escape or Cancel leaves the task as it was.
 */
function TaskEditForm({ task, record, onClose }: { task: Task; record: RecordRef; onClose: () => void }) {
  const [title, setTitle] = useState(task.title);
  const [dueDate, setDueDate] = useState(task.dueDate ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateTask(record, {
    onSuccess: (t) => {
      toast({ title: 'Task Updated', description: t.title, variant: 'success' });
      onClose();
    },
    onError: (e) => {
      const fields = fieldErrorsOf(e);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else toast({ title: 'Update Failed', description: serverMessageOr(e, 'The task could not be saved.'), variant: 'destructive' });
    },
  });

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) {
      setErrors({ title: TITLE_REQUIRED });
      return;
    }
    const change: Omit<TaskChange, 'id'> = {
      ...(trimmed !== task.title ? { title: trimmed } : {}),
      // An emptied date removes it (the api takes null as "no due date").
      ...(dueDate !== (task.dueDate ?? '') ? { dueDate: dueDate || null } : {}),
    };
    if (Object.keys(change).length === 0) onClose();
    else update.mutate({ id: task.id, ...change });
  };
  // Escape inside the form cancels; one in the open calendar (a portal, outside the form's
  // elements) only closes the calendar.
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Escape' && e.target instanceof Node && e.currentTarget.contains(e.target)) {
      e.preventDefault();
      onClose();
    }
  };

  return (
    <form aria-label={`Edit ${task.title}`} onSubmit={submit} onKeyDown={onKeyDown} className="min-w-0 flex-1 space-y-2">
      <Field label="Title" error={errors.title}>
        <input autoFocus value={title} maxLength={500} onChange={(e) => setTitle(e.target.value)} className={inputClass} />
      </Field>
      <Field label="Due date" error={errors.dueDate}>
        <DatePicker value={dueDate} onChange={setDueDate} />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </Button>
        <Button size="sm" variant="secondary" disabled={update.isPending} onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

type TaskRowProps = {
  task: Task;
  record: RecordRef;
  onToggle: (done: boolean) => void;
  onDelete: () => void;
  busy: boolean;
};

function TaskRow({ task, record, onToggle, onDelete, busy }: TaskRowProps) {
  const [editing, setEditing] = useState(false);
  // Set when the editor closes, so focus goes back to the Edit button it replaced.
  const refocusEdit = useRef(false);
  const overdue = !task.done && task.dueDate != null && task.dueDate < todayIso();
  const closeEditor = () => {
    refocusEdit.current = true;
    setEditing(false);
  };
  const iconButton = 'rounded p-1 text-slate-400 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600';
  return (
    <li className="flex items-start gap-3 py-2">
      <input
        type="checkbox"
        className="mt-0.5 size-4 rounded border-slate-300"
        checked={task.done}
        disabled={busy || editing}
        onChange={(e) => onToggle(e.target.checked)}
        aria-label={task.done ? `Reopen ${task.title}` : `Complete ${task.title}`}
      />
      {editing ? (
        <TaskEditForm task={task} record={record} onClose={closeEditor} />
      ) : (
        <>
          <div className="min-w-0 flex-1">
            <p className={`text-sm break-words ${task.done ? 'text-slate-500 line-through' : 'text-slate-900'}`}>{task.title}</p>
            <p className="text-xs text-slate-500">
              {task.done && task.doneAt ? (
                <>Done {formatRelativeTime(task.doneAt)}</>
              ) : task.dueDate ? (
                <span className={overdue ? 'font-medium text-rose-700' : undefined}>
                  {overdue ? 'Overdue · ' : 'Due '}
                  {formatDay(task.dueDate)}
                </span>
              ) : (
                'No due date'
              )}
              {task.assignee ? ` · ${task.assignee}` : null}
            </p>
          </div>
          <button
            type="button"
            ref={(el) => {
              if (el && refocusEdit.current) {
                refocusEdit.current = false;
                el.focus();
              }
            }}
            onClick={() => setEditing(true)}
            disabled={busy}
            aria-label={`Edit ${task.title}`}
            className={`${iconButton} hover:text-slate-700`}
          >
            <Pencil aria-hidden="true" className="size-4" />
          </button>
          <button type="button" onClick={onDelete} disabled={busy} aria-label={`Delete ${task.title}`} className={`${iconButton} hover:text-rose-700`}>
            <Trash2 aria-hidden="true" className="size-4" />
          </button>
        </>
      )}
    </li>
  );
}

/** The record's open tasks, a form to add one, and the done ones behind a toggle. */
export function TasksPanel({ type, id }: { type: RecordType; id: string }) {
  const formId = useId();
  const [title, setTitle] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [showDone, setShowDone] = useState(false);
  const open = useTasks(type, id, 'open');
  const done = useTasks(type, id, 'done', showDone);

  const create = useCreateTask({
    onSuccess: () => {
      setTitle('');
      setDueDate('');
      setErrors({});
      toast({ title: 'Task Added', variant: 'success' });
    },
    onError: (e) => {
      const fields = fieldErrorsOf(e);
      setErrors(Object.keys(fields).length > 0 ? fields : { title: serverMessageOr(e, 'The task could not be saved.') });
    },
  });
  const record = { entityType: type, entityId: id };
  const update = useUpdateTask(
    record,
    {
      onSuccess: (t) => toast({ title: t.done ? 'Task Completed' : 'Task Reopened', description: t.title, variant: 'success' }),
      onError: (e) => toast({ title: 'Update Failed', description: serverMessageOr(e, 'The task could not be saved.'), variant: 'destructive' }),
    },
  );

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!title.trim()) {
      setErrors({ title: 'Give the task a title.' });
      return;
    }
    create.mutate({ entityType: type, entityId: id, title: title.trim(), ...(dueDate ? { dueDate } : {}) });
  };
  const remove = useDeleteTask({
    onSuccess: () => toast({ title: 'Task Deleted', variant: 'success' }),
    onError: (e) => toast({ title: 'Delete Failed', description: serverMessageOr(e, 'The task could not be deleted.'), variant: 'destructive' }),
  });
  const toggle = (task: Task, isDone: boolean) => update.mutate({ id: task.id, done: isDone });
  const busy = (task: Task) => update.isPending && update.variables.id === task.id;

  return (
    <Card title="Tasks">
      {open.isPending ? (
        <Skeleton rows={2} label="Loading tasks" />
      ) : open.isError ? (
        <ErrorState title="Unable to load tasks" error={open.error} onRetry={() => void open.refetch()} />
      ) : open.data.length === 0 ? (
        <p className="text-sm text-slate-500">No open tasks.</p>
      ) : (
        <ul aria-label="Open tasks" className="divide-y divide-slate-100">
          {open.data.map((task) => (
            <TaskRow key={task.id} task={task} record={record} busy={busy(task)} onToggle={(d) => toggle(task, d)} onDelete={() => remove.mutate(task.id)} />
          ))}
        </ul>
      )}

      <form aria-label="Add task" onSubmit={submit} className="mt-3 space-y-2 border-t border-slate-100 pt-3">
        <Field label="Task" error={errors.title}>
          <input
            value={title}
            maxLength={500}
            onChange={(e) => setTitle(e.target.value)}
            className={`mt-1 ${inputClass}`}
            placeholder="Call back about the quote"
          />
        </Field>
        <div className="flex flex-wrap items-end gap-2">
          <Field label="Due date (optional)" error={errors.dueDate} className="min-w-40 flex-1">
            <DatePicker value={dueDate} onChange={setDueDate} className="mt-1" />
          </Field>
          <Button type="submit" size="sm" disabled={create.isPending} className="mb-0.5">
            {create.isPending ? 'Adding…' : 'Add task'}
          </Button>
        </div>
      </form>

      <div className="mt-3 border-t border-slate-100 pt-2">
        <button
          type="button"
          aria-expanded={showDone}
          aria-controls={`${formId}-done`}
          onClick={() => setShowDone((s) => !s)}
          className="flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <ChevronRight aria-hidden="true" className={`size-4 transition-transform ${showDone ? 'rotate-90' : ''}`} />
          Done tasks
        </button>
        {showDone ? (
          <div id={`${formId}-done`}>
            {done.isPending ? (
              <Skeleton rows={1} label="Loading done tasks" />
            ) : done.isError ? (
              <ErrorState title="Unable to load done tasks" error={done.error} onRetry={() => void done.refetch()} />
            ) : done.data.length === 0 ? (
              <p className="py-2 text-sm text-slate-500">No done tasks yet.</p>
            ) : (
              <ul aria-label="Done tasks" className="divide-y divide-slate-100">
                {done.data.map((task) => (
                  <TaskRow key={task.id} task={task} record={record} busy={busy(task)} onToggle={(d) => toggle(task, d)} onDelete={() => remove.mutate(task.id)} />
                ))}
              </ul>
            )}
          </div>
        ) : null}
      </div>
    </Card>
  );
}
