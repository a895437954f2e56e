import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { formatDay, formatDayInput } from '@/lib/format';
import { seriousViolations } from '@/testing/axe';
import { db, makeDeal } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

import type { Task } from '../api/types';

/** The JSON bodies of every task PATCH, the default handler still answering. */
function patchesOfTasks() {
  const bodies: unknown[] = [];
  server.use(
    http.patch('/api/tasks/:id', async ({ request }) => {
      bodies.push(await request.clone().json());
      return undefined;
    }),
  );
  return bodies;
}

async function openDealWithTask(over: Partial<Task> = {}) {
  const deal = makeDeal({ title: 'Showroom remodel' });
  db.tasks.push({
    id: 'task-1',
    entityType: 'deal',
    entityId: deal.id,
    entityName: deal.title,
    title: 'Send the quote',
    dueDate: '2026-02-03',
    done: false,
    doneAt: null,
    assignee: 'admin@example.com',
    createdAt: '2026-01-01T00:00:00Z',
    ...over,
  });
  const patches = patchesOfTasks();
  const view = renderApp(`/deals/${deal.id}`, { signedIn: true });
  const panel = await screen.findByRole('region', { name: 'Tasks' });
  const open = await within(panel).findByRole('list', { name: 'Open tasks' });
  return { ...view, panel, open, patches };
}

describe('editing a task in place', () => {
  it('sends only the new title, shows it in the row and gives focus back to Edit', async () => {
    const { user, open, patches } = await openDealWithTask();
    await user.click(within(open).getByRole('button', { name: 'Edit Send the quote' }));
    const form = within(open).getByRole('form', { name: 'Edit Send the quote' });
    const title = within(form).getByLabelText('Title');
    expect(title).toHaveFocus();
    expect(within(form).getByLabelText('Due date')).toHaveValue(formatDayInput('2026-02-03'));

    await user.clear(title);
    await user.type(title, 'Send the revised quote{Enter}');

    expect(await within(open).findByText('Send the revised quote')).toBeInTheDocument();
    expect(patches).toEqual([{ title: 'Send the revised quote' }]);
    expect(screen.getByText('Task Updated')).toBeInTheDocument();
    expect(within(open).queryByRole('form')).not.toBeInTheDocument();
    expect(within(open).getByRole('button', { name: 'Edit Send the revised quote' })).toHaveFocus();
    expect(db.tasks[0]?.title).toBe('Send the revised quote');
  });

  it('changes the due date, clears it with null, and refuses an empty title without a request', async () => {
    const { user, open, patches } = await openDealWithTask();
    const edit = () => user.click(within(open).getByRole('button', { name: 'Edit Send the quote' }));

    await edit();
    let form = within(open).getByRole('form', { name: 'Edit Send the quote' });
    const due = within(form).getByLabelText('Due date');
    await user.clear(due);
    await user.type(due, '2099-03-15');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(open).findByText(`Due ${formatDay('2099-03-15')}`)).toBeInTheDocument();

    await edit();
    form = within(open).getByRole('form', { name: 'Edit Send the quote' });
    await user.click(within(form).getByRole('button', { name: 'Clear date' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(open).findByText(/^No due date/)).toBeInTheDocument();
    expect(patches).toEqual([{ dueDate: '2099-03-15' }, { dueDate: null }]);

    await edit();
    form = within(open).getByRole('form', { name: 'Edit Send the quote' });
    await user.clear(within(form).getByLabelText('Title'));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('Task title is required')).toBeInTheDocument();
    expect(within(form).getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(patches).toHaveLength(2);
  });

  it('cancels with Escape, sending nothing; Escape in the calendar only closes the calendar', async () => {
    const { user, open, patches } = await openDealWithTask();
    await user.click(within(open).getByRole('button', { name: 'Edit Send the quote' }));
    const form = within(open).getByRole('form', { name: 'Edit Send the quote' });

    await user.click(within(form).getByRole('button', { name: 'Choose date' }));
    await screen.findByRole('dialog', { name: 'Calendar' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Calendar' })).not.toBeInTheDocument());
    expect(form).toBeInTheDocument();
    expect(await seriousViolations(form)).toEqual([]);

    await user.type(within(form).getByLabelText('Title'), ' now{Escape}');
    expect(within(open).queryByRole('form')).not.toBeInTheDocument();
    expect(within(open).getByText('Send the quote')).toBeInTheDocument();
    expect(within(open).getByRole('button', { name: 'Edit Send the quote' })).toHaveFocus();
    expect(patches).toEqual([]);
  });

  it('shows the server’s field error on the field, keeping the form open', async () => {
    const { user, open } = await openDealWithTask();
    server.use(
      http.patch('/api/tasks/:id', () =>
        HttpResponse.json(
          { message: 'Due date must be a date (YYYY-MM-DD)', errors: { dueDate: 'Due date must be a date (YYYY-MM-DD)' } },
          { status: 400 },
        ),
      ),
    );
    await user.click(within(open).getByRole('button', { name: 'Edit Send the quote' }));
    const form = within(open).getByRole('form', { name: 'Edit Send the quote' });
    const due = within(form).getByLabelText('Due date');
    await user.clear(due);
    await user.type(due, '2026-04-01');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Due date must be a date (YYYY-MM-DD)')).toBeInTheDocument();
    expect(due).toHaveAttribute('aria-invalid', 'true');
  });
});
