import { ChevronRight, Trash2 } from 'lucide-react';
import { useId, useState, type SubmitEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import type { RecordType } from '@/config/paths';
import { fieldErrorsOf, serverMessageOr } from '@/lib/api-client';
import { formatDay, formatRelativeTime, todayIso } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useCreateTask } from '../api/create-task';
import { useTasks } from '../api/get-tasks';
import { useDeleteTask, useUpdateTask } from '../api/update-task';
import type { Task } from '../api/types';

function TaskRow({ task, onToggle, onDelete, busy }: { task: Task; onToggle: (done: boolean) => void; onDelete: () => void; busy: boolean }) {
  const overdue = !task.done && task.dueDate !== null && task.dueDate < todayIso();
  return (
    <li className="flex items-start gap-3 py-2">
      <input
        type="checkbox"
        className="mt-0.5 size-4 rounded border-slate-300"
        checked={task.done}
        disabled={busy}
        onChange={(e) => onToggle(e.target.checked)}
        aria-label={task.done ? `Reopen ${task.title}` : `Complete ${task.title}`}
      />
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
        onClick={onDelete}
        disabled={busy}
        aria-label={`Delete ${task.title}`}
        className="rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-rose-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <Trash2 aria-hidden="true" className="size-4" />
      </button>
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
  const update = useUpdateTask(
    { entityType: type, entityId: id },
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
            <TaskRow key={task.id} task={task} busy={busy(task)} onToggle={(d) => toggle(task, d)} onDelete={() => remove.mutate(task.id)} />
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
            <input type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} className={`mt-1 ${inputClass}`} />
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
                  <TaskRow key={task.id} task={task} busy={busy(task)} onToggle={(d) => toggle(task, d)} onDelete={() => remove.mutate(task.id)} />
                ))}
              </ul>
            )}
          </div>
        ) : null}
      </div>
    </Card>
  );
}
