import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { columnCentre, layOutBoard, loadedCards, pointerDrag, renderedCards, revealCard, waitForCards } from '@/testing/boards';
import { db, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const column = (name: string) => screen.getByRole('region', { name });
const list = (name: string) => screen.getByRole('list', { name: `Leads in ${name}` });
/** Every lead the column has loaded, rendered or not (the list renders those in view). */
const cards = (name: string) => loadedCards(list(name));

/** `n` leads in `status`, "Lead 01" the oldest; the board lists the newest first. */
const seedLeads = (n: number, status: string) =>
  Array.from({ length: n }, (_, i) => makeContact({ firstName: 'Lead', lastName: String(i + 1).padStart(2, '0'), status }));
const names = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, i) => `Lead ${String(from - i).padStart(2, '0')}`);

describe('lead pipeline', () => {
  it('shows the four stages with count, average score and high-priority count', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Hot', status: 'new_lead', score: 85 });
    makeContact({ firstName: 'Bo', lastName: 'Warm', status: 'new_lead', score: 72 });
    makeContact({ firstName: 'Cy', lastName: 'Cool', status: 'new_lead', score: 50 });
    makeContact({ firstName: 'Di', lastName: 'Customer', status: 'customer', score: 99 });
    renderApp('/leads', { signedIn: true });

    const newLeads = await screen.findByRole('region', { name: 'New Leads' });
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual(
      expect.arrayContaining(['New Leads', 'Email Sent', 'Meeting Scheduled', 'Qualified']),
    );
    expect(within(newLeads).getByText('Count').nextSibling).toHaveTextContent('3');
    expect(within(newLeads).getByText('Avg score').nextSibling).toHaveTextContent('69');
    expect(within(newLeads).getByText('High priority', { selector: 'dt' }).nextSibling).toHaveTextContent('1');
    // 80+ is high priority (red), 70–79 medium (orange).
    expect(within(newLeads).getByRole('listitem', { name: 'Ann Hot' })).toHaveAttribute('data-priority', 'high');
    expect(within(newLeads).getByRole('listitem', { name: 'Bo Warm' })).toHaveAttribute('data-priority', 'medium');
    expect(within(newLeads).getByRole('listitem', { name: 'Cy Cool' })).toHaveAttribute('data-priority', 'normal');
    // Customers are not on the board.
    expect(screen.queryByRole('listitem', { name: 'Di Customer' })).not.toBeInTheDocument();
    expect(within(column('Email Sent')).getByText('No leads in this stage')).toBeInTheDocument();
  });

  it('moves a lead one stage forward and back; no back from the first stage', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    const requests = recordRequests();
    const { user } = renderApp('/admin/leads', { signedIn: true });
    const card = await within(await screen.findByRole('region', { name: 'New Leads' })).findByRole('listitem', { name: 'Ann Lee' });
    expect(within(card).queryByRole('button', { name: /back/ })).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Move Ann Lee to Email Sent' }));
    expect(await within(column('Email Sent')).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();
    expect(screen.getByText('Ann Lee moved to Email Sent.')).toBeInTheDocument();
    expect(requests).toContainEqual({ method: 'POST', path: `/api/contacts/${db.contacts[0]?.id ?? ''}/pipeline-move`, search: '' });

    await user.click(screen.getByRole('button', { name: 'Move Ann Lee back to New Leads' }));
    expect(await within(column('New Leads')).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();
  });

  it('converts a qualified lead to a customer', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'qualified' });
    const { user } = renderApp('/leads', { signedIn: true });
    const qualified = await screen.findByRole('region', { name: 'Qualified' });
    const card = await within(qualified).findByRole('listitem', { name: 'Ann Lee' });
    expect(within(card).queryByRole('button', { name: /Move Ann Lee to/ })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Convert to Customer: Ann Lee' }));
    expect(await screen.findByText('Converted to Customer')).toBeInTheDocument();
    await waitFor(() => expect(within(qualified).queryByRole('listitem', { name: 'Ann Lee' })).not.toBeInTheDocument());
    expect(db.contacts[0]?.status).toBe('customer');
  });

  it("reports 'Update Failed' when the server refuses a move", async () => {
    const contact = makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    const { user } = renderApp('/leads', { signedIn: true });
    const card = await screen.findByRole('listitem', { name: 'Ann Lee' });
    contact.status = 'lost'; // changed elsewhere meanwhile: the server answers 409
    await user.click(within(card).getByRole('button', { name: 'Move Ann Lee to Email Sent' }));
    const toast = (await screen.findByText('Update Failed')).closest('[role="alert"]');
    expect(toast).toHaveTextContent('Failed to update contact status.');
  });

  it('moves the selected leads to a chosen stage in bulk', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    makeContact({ firstName: 'Bo', lastName: 'Ray', status: 'email_sent' });
    makeContact({ firstName: 'Cy', lastName: 'Fox', status: 'new_lead' });
    const { user } = renderApp('/leads', { signedIn: true });
    await screen.findByRole('listitem', { name: 'Ann Lee' });

    await user.click(screen.getByRole('button', { name: 'Bulk Actions' }));
    const bulk = screen.getByRole('form', { name: 'Bulk move' });
    expect(within(bulk).getByRole('button', { name: 'Move' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bo Ray' }));
    await chooseOption(user, within(bulk).getByLabelText('Move selected to'), 'Meeting Scheduled');
    await user.click(within(bulk).getByRole('button', { name: 'Move' }));

    expect(await screen.findByText('2 of 2 contacts moved.')).toBeInTheDocument();
    const meeting = column('Meeting Scheduled');
    expect(await within(meeting).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();
    expect(within(meeting).getByRole('listitem', { name: 'Bo Ray' })).toBeInTheDocument();
    expect(within(column('New Leads')).getByRole('listitem', { name: 'Cy Fox' })).toBeInTheDocument();
    expect(within(bulk).getByText('0 selected')).toBeInTheDocument();
  });

  it('opens the contact detail dialog from a card', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead', score: 92, isVerified: true, verificationScore: 64 });
    const { user } = renderApp('/leads', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Quick view Ann Lee' }));
    const dialog = screen.getByRole('dialog', { name: 'Ann Lee' });
    expect(within(dialog).getByText('Excellent')).toBeInTheDocument();
    expect(within(dialog).getByText('Verified')).toBeInTheDocument();
    expect(within(dialog).getByText('64%')).toHaveClass('text-amber-700');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Quick view Ann Lee' })).toHaveFocus();
  });

  describe('drag and drop', () => {
    /** The bodies of the pipeline moves sent, as `id: direction`. */
    function recordMoves() {
      const moves: string[] = [];
      server.use(
        http.post('/api/contacts/:id/pipeline-move', async ({ request, params }) => {
          const { direction } = (await request.clone().json()) as { direction: string };
          moves.push(`${String(params.id)}: ${direction}`);
        }),
      );
      return moves;
    }

    it('drops a lead on the stage before or after it; any other stage refuses it while dragging and nothing is sent', async () => {
      layOutBoard();
      const ann = makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'email_sent' });
      const moves = recordMoves();
      renderApp('/leads', { signedIn: true });
      const handle = await within(await screen.findByRole('listitem', { name: 'Ann Lee' })).findByRole('button', { name: 'Drag Ann Lee' });

      // Columns: New Leads 0, Email Sent 1, Meeting Scheduled 2, Qualified 3.
      const drag = pointerDrag(handle);
      await waitFor(() => expect(column('New Leads')).toHaveAttribute('data-drop', 'allowed'));
      expect(column('Meeting Scheduled')).toHaveAttribute('data-drop', 'allowed');
      expect(column('Qualified')).toHaveAttribute('data-drop', 'refused');
      expect(column('Email Sent')).not.toHaveAttribute('data-drop');
      drag.move(columnCentre(3));
      await waitFor(() => expect(column('Qualified')).toHaveAttribute('data-over', 'true'));
      expect(within(column('Qualified')).getByText("Can't move here. A lead moves one stage at a time.")).toBeInTheDocument();
      drag.drop();
      await waitFor(() => expect(column('Qualified')).not.toHaveAttribute('data-drop'));
      expect(within(column('Email Sent')).getByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();

      const back = pointerDrag(within(column('Email Sent')).getByRole('button', { name: 'Drag Ann Lee' }));
      back.move(columnCentre(0));
      expect(await within(column('New Leads')).findByText('Drop to move to New Leads')).toBeInTheDocument();
      back.drop();
      expect(await screen.findByText('Ann Lee moved to New Leads.')).toBeInTheDocument();
      expect(await within(column('New Leads')).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();

      const forward = pointerDrag(within(column('New Leads')).getByRole('button', { name: 'Drag Ann Lee' }));
      forward.move(columnCentre(1));
      forward.drop();
      expect(await within(column('Email Sent')).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();
      expect(moves).toEqual([`${ann.id}: back`, `${ann.id}: forward`]);
      expect(ann.status).toBe('email_sent');
    });

    it('moves a lead with the keyboard: Space picks it up, ← and → choose the stage, Space drops it; every step is announced', async () => {
      layOutBoard();
      const ann = makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
      const moves = recordMoves();
      const { user } = renderApp('/leads', { signedIn: true });
      const handle = await within(await screen.findByRole('listitem', { name: 'Ann Lee' })).findByRole('button', { name: 'Drag Ann Lee' });
      expect(handle).toHaveAttribute('aria-roledescription', 'draggable');
      expect(screen.getByText(/With the keyboard: focus the handle, press Space/, { selector: 'p' })).toBeVisible();

      handle.focus();
      await user.keyboard(' ');
      expect(await screen.findByText('Picked up Ann Lee in New Leads. It can move to Email Sent.')).toBeInTheDocument();
      await user.keyboard('{ArrowRight}');
      expect(await screen.findByText('Over Email Sent. Drop to move Ann Lee there.')).toBeInTheDocument();
      await user.keyboard('{ArrowRight}');
      expect(await screen.findByText('Over Meeting Scheduled: Ann Lee cannot move there. A lead moves one stage at a time.')).toBeInTheDocument();
      expect(column('Meeting Scheduled')).toHaveAttribute('data-drop', 'refused');
      // Dropped where it may not go: nothing is sent.
      await user.keyboard(' ');
      expect(
        await screen.findByText('Ann Lee was not moved: A lead moves one stage at a time. It stays in New Leads.'),
      ).toBeInTheDocument();
      expect(moves).toEqual([]);

      await waitFor(() => expect(handle).toHaveFocus());
      await user.keyboard(' ');
      await user.keyboard('{ArrowRight}');
      await user.keyboard('{Escape}');
      expect(await screen.findByText('Cancelled. Ann Lee stays in New Leads.')).toBeInTheDocument();
      expect(moves).toEqual([]);

      await waitFor(() => expect(handle).toHaveFocus());
      await user.keyboard(' ');
      await user.keyboard('{ArrowRight}');
      await user.keyboard(' ');
      expect(await screen.findByText('Moved Ann Lee to Email Sent.')).toBeInTheDocument();
      expect(await screen.findByText('Ann Lee moved to Email Sent.')).toBeInTheDocument();
      expect(moves).toEqual([`${ann.id}: forward`]);
      // The keyboard stays with the lead in its new stage.
      const moved = await within(column('Email Sent')).findByRole('listitem', { name: 'Ann Lee' });
      await waitFor(() => expect(within(moved).getByRole('button', { name: 'Drag Ann Lee' })).toHaveFocus());
    });

    it("a drop the server refuses says 'Update Failed', as the button does", async () => {
      layOutBoard();
      const ann = makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
      renderApp('/leads', { signedIn: true });
      const handle = await within(await screen.findByRole('listitem', { name: 'Ann Lee' })).findByRole('button', { name: 'Drag Ann Lee' });
      ann.status = 'lost'; // changed elsewhere meanwhile: the server answers 409
      const drag = pointerDrag(handle);
      drag.move(columnCentre(1));
      await waitFor(() => expect(column('Email Sent')).toHaveAttribute('data-over', 'true'));
      drag.drop();
      expect((await screen.findByText('Update Failed')).closest('[role="alert"]')).toHaveTextContent('Failed to update contact status.');
    });
  });

  describe('board paging', () => {
    it('lists the first 25 of a stage with its full count; "Show more" adds 25 at a time until all are shown', async () => {
      seedLeads(60, 'new_lead');
      const requests = recordRequests();
      const { user } = renderApp('/leads', { signedIn: true });
      const newLeads = await screen.findByRole('region', { name: 'New Leads' });
      await within(newLeads).findByRole('listitem', { name: 'Lead 60' });
      expect(cards('New Leads')).toEqual(names(60, 36));
      // The list renders only the leads in and near its view.
      expect(renderedCards(list('New Leads')).length).toBeLessThan(10);
      expect(within(newLeads).getByText('Count').nextSibling).toHaveTextContent('60');
      expect(within(newLeads).getByText('Showing 25 of 60')).toBeInTheDocument();
      expect(requests.filter((r) => r.path.startsWith('/api/leads') || r.path === '/api/contacts')).toEqual([
        { method: 'GET', path: '/api/leads/board', search: '?limit=25' },
      ]);

      const more = within(newLeads).getByRole('button', { name: 'Show more New Leads' });
      expect(more).toHaveTextContent('Show more');
      await user.click(more);
      expect(await within(newLeads).findByText('Showing 50 of 60')).toBeInTheDocument();
      expect(cards('New Leads')).toEqual(names(60, 11));

      await user.click(within(newLeads).getByRole('button', { name: 'Show more New Leads' }));
      await waitForCards(() => expect(cards('New Leads')).toEqual(names(60, 1)));
      expect(within(newLeads).queryByText(/^Showing/)).not.toBeInTheDocument();
      expect(within(newLeads).queryByRole('button', { name: 'Show more New Leads' })).not.toBeInTheDocument();
      expect(screen.getByRole('list', { name: 'Leads in New Leads' })).toHaveFocus();
      expect(requests.filter((r) => r.path === '/api/contacts').map((r) => r.search)).toEqual([
        '?status=new_lead&limit=25&offset=25',
        '?status=new_lead&limit=25&offset=50',
      ]);
      // Columns with every lead shown have no button.
      expect(within(column('Email Sent')).queryByRole('button', { name: /Show more/ })).not.toBeInTheDocument();
    });

    it('says "Loading…" and takes no second click while a page loads', async () => {
      seedLeads(30, 'email_sent');
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      server.use(
        http.get('/api/contacts', async () => {
          await gate; // then on to the stateful handler
        }),
      );
      const requests = recordRequests();
      const { user } = renderApp('/leads', { signedIn: true });
      const more = await within(await screen.findByRole('region', { name: 'Email Sent' })).findByRole('button', { name: 'Show more Email Sent' });
      await user.click(more);
      await waitFor(() => expect(more).toHaveTextContent('Loading…'));
      expect(more).toHaveAttribute('aria-disabled', 'true');
      await user.click(more);
      release();
      await waitForCards(() => expect(cards('Email Sent')).toHaveLength(30));
      expect(requests.filter((r) => r.path === '/api/contacts')).toHaveLength(1);
    });

    it('a failed page says so and "Show more" tries again', async () => {
      seedLeads(30, 'qualified');
      server.use(
        http.get('/api/contacts', () => HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }), { once: true }),
      );
      const { user } = renderApp('/leads', { signedIn: true });
      const qualified = await screen.findByRole('region', { name: 'Qualified' });
      await user.click(await within(qualified).findByRole('button', { name: 'Show more Qualified' }));
      expect(await within(qualified).findByRole('alert')).toHaveTextContent('Failed to load more: Database unavailable');
      expect(cards('Qualified')).toHaveLength(25);

      await user.click(within(qualified).getByRole('button', { name: 'Show more Qualified' }));
      await waitForCards(() => expect(cards('Qualified')).toHaveLength(30));
      expect(within(qualified).queryByRole('alert')).not.toBeInTheDocument();
    });

    it('a move refetches the pages already shown: the lead leaves its column, "Showing" follows', async () => {
      seedLeads(60, 'new_lead');
      const requests = recordRequests();
      const { user } = renderApp('/leads', { signedIn: true });
      const newLeads = await screen.findByRole('region', { name: 'New Leads' });
      await user.click(await within(newLeads).findByRole('button', { name: 'Show more New Leads' }));
      expect(await within(newLeads).findByText('Showing 50 of 60')).toBeInTheDocument();

      // Lead 20 came with "Show more", far down the column.
      await user.click(within(revealCard(list('New Leads'), 'Lead 20')).getByRole('button', { name: 'Move Lead 20 to Email Sent' }));
      expect(await within(column('Email Sent')).findByRole('listitem', { name: 'Lead 20' })).toBeInTheDocument();
      await waitFor(() => expect(within(newLeads).queryByRole('listitem', { name: 'Lead 20' })).not.toBeInTheDocument());
      // The page after the board's 25 now starts one lead later: Lead 10 moves up into it.
      await waitForCards(() => expect(cards('New Leads')).toEqual([...names(60, 21), ...names(19, 10)]));
      expect(within(newLeads).getByText('Showing 50 of 59')).toBeInTheDocument();
      expect(within(newLeads).getByText('Count').nextSibling).toHaveTextContent('59');
      expect(requests.filter((r) => r.path === '/api/contacts').map((r) => r.search)).toEqual([
        '?status=new_lead&limit=25&offset=25',
        '?status=new_lead&limit=25&offset=25',
      ]);
    });
  });
});
