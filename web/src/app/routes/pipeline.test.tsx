import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { columnCentre, layOutBoard, loadedCards, pointerDrag, renderedCards, revealCard, scrollList, waitForCards } from '@/testing/boards';
import { captureDownloads } from '@/testing/downloads';
import { db, makeCompany, makeContact, makeDeal } from '@/testing/mocks/db';
import { recordRequests, server, type RecordedRequest } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const column = (name: string) => screen.getByRole('region', { name });
const list = (name: string) => screen.getByRole('list', { name: `Deals in ${name}` });
/** Every deal the column has loaded, rendered or not (the list renders those in view). */
const cards = (name: string) => loadedCards(list(name));

/** `n` deals of $1,000 in `stage`, "Deal 01" the oldest; the board lists the newest first. */
const seedDeals = (n: number, stage: string) =>
  Array.from({ length: n }, (_, i) => makeDeal({ title: `Deal ${String(i + 1).padStart(2, '0')}`, value: '1000', stage }));
const titles = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, i) => `Deal ${String(from - i).padStart(2, '0')}`);

async function openDealForm() {
  const view = renderApp('/pipeline', { signedIn: true });
  await view.user.click(await screen.findByRole('button', { name: 'Add Deal' }));
  return { ...view, form: screen.getByRole('form', { name: 'Add new deal' }) };
}

describe('sales pipeline', () => {
  it('groups deals by stage with $K totals; stageless deals count as qualification; closed_lost is hidden', async () => {
    makeDeal({ title: 'A', value: '52000', stage: 'qualification' });
    makeDeal({ title: 'B', value: '8400', stage: null });
    makeDeal({ title: 'C', value: '120000', stage: 'closed_won', actualCloseDate: '2026-01-10' });
    makeDeal({ title: 'D', value: '1000', stage: 'closed_lost' });
    renderApp('/pipeline', { signedIn: true });

    const qualification = await screen.findByRole('region', { name: 'Qualification' });
    expect(await within(qualification).findByText('$60K · 2 deals')).toBeInTheDocument();
    expect(within(qualification).getByRole('listitem', { name: 'B' })).toHaveTextContent('High potential');
    const won = within(column('Closed Won')).getByRole('listitem', { name: 'C' });
    expect(won).toHaveTextContent('Signed 2026-01-10');
    expect(won).toHaveTextContent('$120,000');
    expect(screen.queryByRole('listitem', { name: 'D' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Closed Lost' })).not.toBeInTheDocument();
  });

  it('shows the KPI tiles from the pipeline metrics', async () => {
    makeDeal({ value: '52000' });
    makeDeal({ value: '1200000' });
    renderApp('/pipeline', { signedIn: true });
    const tile = async (label: string) => (await screen.findByText(label, { selector: 'p' })).parentElement;
    expect(await tile('Total Pipeline')).toHaveTextContent('$1.3M');
    expect(await tile('Active Deals')).toHaveTextContent('2');
    expect(await tile('Avg Deal Size')).toHaveTextContent('$626,000');
    expect(await tile('Pipeline Velocity')).toHaveTextContent('Building momentum');
  });

  it('requires a title and a value, with the seed messages', async () => {
    const { user, form } = await openDealForm();
    await user.click(within(form).getByRole('button', { name: 'Create Deal' }));
    expect(within(form).getByText('Deal title is required')).toBeInTheDocument();
    expect(within(form).getByText('Deal value is required')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Value (USD)'), '12.5k');
    await user.click(within(form).getByRole('button', { name: 'Create Deal' }));
    expect(within(form).getByText('Deal value must be a whole number of dollars')).toBeInTheDocument();
    expect(db.deals).toHaveLength(0);
  });

  it('sets the probability from the chosen stage and creates the deal', async () => {
    const company = makeCompany({ name: 'Castillo Remodeling' });
    let body: unknown;
    server.use(
      http.post('/api/deals', async ({ request }) => {
        body = await request.clone().json();
      }),
    );
    const { user, form } = await openDealForm();
    expect(within(form).getByLabelText('Probability (%)')).toHaveValue(25);
    await chooseOption(user, within(form).getByLabelText('Stage'), 'Negotiation');
    expect(within(form).getByLabelText('Probability (%)')).toHaveValue(65);
    await chooseOption(user, within(form).getByLabelText('Stage'), 'Closed Lost');
    expect(within(form).getByLabelText('Probability (%)')).toHaveValue(0);
    await chooseOption(user, within(form).getByLabelText('Stage'), 'Proposal');

    await user.type(within(form).getByLabelText('Deal title'), 'Castillo showroom');
    await user.type(within(form).getByLabelText('Value (USD)'), '52000');
    // The company is found by typing, not picked from every company loaded at once.
    const companyBox = within(form).getByRole('combobox', { name: 'Company' });
    await user.type(companyBox, 'castillo');
    await user.click(await within(form).findByRole('option', { name: /^Castillo Remodeling/ }));
    expect(companyBox).toHaveValue('Castillo Remodeling');
    expect(companyBox).toHaveAttribute('aria-expanded', 'false');
    // Keyboard: the contact list opens with ↓; Escape closes it without closing the dialog.
    const contactBox = within(form).getByRole('combobox', { name: 'Contact' });
    await user.click(contactBox);
    await user.keyboard('{Escape}');
    expect(contactBox).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('dialog', { name: 'Add New Deal' })).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create Deal' }));

    expect(await screen.findByText('Deal Created')).toBeInTheDocument();
    expect(body).toEqual({
      title: 'Castillo showroom',
      value: 52000,
      description: null,
      stage: 'proposal',
      probability: 45,
      expectedCloseDate: null,
      contactId: null,
      companyId: company.id,
      notes: null,
    });
    expect(await within(column('Proposal')).findByRole('listitem', { name: 'Castillo showroom' })).toBeInTheDocument();
  });

  it('refuses an expected close date in the past', async () => {
    const { user, form } = await openDealForm();
    const date = within(form).getByLabelText('Expected close date');
    expect(date).toHaveAttribute('min');
    await user.type(within(form).getByLabelText('Deal title'), 'Old');
    await user.type(within(form).getByLabelText('Value (USD)'), '10');
    await user.type(date, '2001-01-01');
    await user.click(within(form).getByRole('button', { name: 'Create Deal' }));
    expect(within(form).getByText('Expected close date cannot be in the past')).toBeInTheDocument();
  });

  it('moves a deal to the next stage from its menu; closed_won has no next stage', async () => {
    makeDeal({ title: 'Castillo showroom', stage: 'decision' });
    const { user } = renderApp('/admin/pipeline', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Actions for Castillo showroom' }));
    await user.click(screen.getByRole('menuitem', { name: 'Move to next stage' }));
    expect(await screen.findByText('"Castillo showroom" moved to Closed Won stage.')).toBeInTheDocument();
    expect(await within(column('Closed Won')).findByRole('listitem', { name: 'Castillo showroom' })).toBeInTheDocument();
    expect(db.deals[0]?.probability).toBe(100);

    await user.click(screen.getByRole('button', { name: 'Actions for Castillo showroom' }));
    expect(screen.getByRole('menuitem', { name: 'Move to next stage' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('edits a deal: its values in the form, a past close date it already had is kept', async () => {
    makeDeal({ title: 'Castillo showroom', value: '52000', stage: 'proposal', probability: 50, expectedCloseDate: '2020-05-01' });
    const { user } = renderApp('/admin/pipeline', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Actions for Castillo showroom' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit Deal' }));
    const form = await screen.findByRole('form', { name: 'Edit deal' });
    expect(within(form).getByLabelText('Value (USD)')).toHaveValue('52000');
    expect(within(form).getByLabelText('Stage')).toHaveTextContent('Proposal');
    const value = within(form).getByLabelText('Value (USD)');
    await user.clear(value);
    await user.type(value, '61000');
    await user.type(within(form).getByLabelText('Notes'), 'Wants the roll-in showers too');
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Deal Updated')).toBeInTheDocument();
    expect(db.deals[0]).toMatchObject({ value: '61000', expectedCloseDate: '2020-05-01', notes: 'Wants the roll-in showers too' });
    expect(await within(column('Proposal')).findByText('$61,000')).toBeInTheDocument();
  });

  it('deletes a deal after confirming', async () => {
    makeDeal({ title: 'Castillo showroom' });
    const { user } = renderApp('/pipeline', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Actions for Castillo showroom' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete Deal' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Deal' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete "Castillo showroom"?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deal Deleted')).toBeInTheDocument();
    expect(db.deals).toHaveLength(0);
    expect(await screen.findByText('No deals yet')).toBeInTheDocument();
  });

  it('converts a company prospect and a contact prospect into deals', async () => {
    makeCompany({ name: 'Acme Bath LLC', prospectScore: 72 });
    makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    const { user } = renderApp('/pipeline', { signedIn: true });
    const companies = await screen.findByRole('region', { name: 'Company Prospects' });
    await user.click(await within(companies).findByRole('button', { name: 'Convert to Deal: Acme Bath LLC' }));
    expect(await screen.findByText('"Acme Bath LLC" is now a deal.')).toBeInTheDocument();
    await waitFor(() => expect(within(companies).getByText('No company prospects.')).toBeInTheDocument());

    const contacts = screen.getByRole('region', { name: 'Contact Prospects' });
    expect(within(contacts).getByText('New Lead')).toBeInTheDocument();
    await user.click(within(contacts).getByRole('button', { name: 'Convert to Deal: Ann Lee' }));
    expect(await screen.findByText('Prospect Converted')).toBeInTheDocument();
    expect(await within(column('Qualification')).findByRole('listitem', { name: 'Ann Lee' })).toBeInTheDocument();
  });

  it('exports the pipeline as the server names it', async () => {
    const downloads = captureDownloads();
    const { user } = renderApp('/pipeline', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Export Pipeline' }));
    expect(await screen.findByText('Export Complete')).toBeInTheDocument();
    expect(downloads).toEqual(['pipeline_export_2026-01-15.csv']);
  });

  it('sets a prospect status; a contact marked Not Interested leaves the prospects', async () => {
    const company = makeCompany({ name: 'Acme Bath LLC', prospectScore: 72 });
    const contact = makeContact({ firstName: 'Ann', lastName: 'Lee', status: 'new_lead' });
    const { user } = renderApp('/pipeline', { signedIn: true });
    await chooseOption(user, await screen.findByLabelText('Set status of Acme Bath LLC'), 'Qualified');
    expect(await screen.findByText('Prospect Updated')).toBeInTheDocument();
    expect(company.status).toBe('qualified');

    await chooseOption(user, screen.getByLabelText('Set status of Ann Lee'), 'Not Interested');
    await waitFor(() => expect(contact.status).toBe('lost'));
    await waitFor(() => expect(screen.queryByLabelText('Set status of Ann Lee')).not.toBeInTheDocument());
  });

  describe('drag and drop', () => {
    const nextStageMoves = (requests: RecordedRequest[]) => requests.filter((r) => r.path.endsWith('/next-stage'));

    it('drops a deal on the next stage only: back, or two stages on, is refused while dragging and sends nothing', async () => {
      layOutBoard();
      const deal = makeDeal({ title: 'Castillo showroom', stage: 'proposal' });
      const requests = recordRequests();
      renderApp('/pipeline', { signedIn: true });
      const handle = await within(await screen.findByRole('listitem', { name: 'Castillo showroom' })).findByRole('button', {
        name: 'Drag Castillo showroom',
      });

      // Columns: Qualification 0, Proposal 1, Negotiation 2, Decision 3, Closed Won 4.
      const drag = pointerDrag(handle);
      await waitFor(() => expect(column('Negotiation')).toHaveAttribute('data-drop', 'allowed'));
      for (const [i, name] of [[0, 'Qualification'], [3, 'Decision'], [4, 'Closed Won']] as const) {
        expect(column(name)).toHaveAttribute('data-drop', 'refused');
        drag.move(columnCentre(i));
        expect(await within(column(name)).findByText("Can't move here. A deal moves to the next stage only.")).toBeInTheDocument();
      }
      drag.drop();
      await waitFor(() => expect(column('Decision')).not.toHaveAttribute('data-drop'));
      expect(nextStageMoves(requests)).toEqual([]);
      expect(within(column('Proposal')).getByRole('listitem', { name: 'Castillo showroom' })).toBeInTheDocument();

      const again = pointerDrag(handle);
      again.move(columnCentre(2));
      expect(await within(column('Negotiation')).findByText('Drop to move to Negotiation')).toBeInTheDocument();
      again.drop();
      expect(await screen.findByText('"Castillo showroom" moved to Negotiation stage.')).toBeInTheDocument();
      expect(await within(column('Negotiation')).findByRole('listitem', { name: 'Castillo showroom' })).toBeInTheDocument();
      expect(nextStageMoves(requests)).toEqual([{ method: 'POST', path: `/api/deals/${deal.id}/next-stage`, search: '' }]);
    });

    it('moves a deal a stage with the keyboard (Space, →, Space), announced; a Closed Won deal has nothing to drag', async () => {
      layOutBoard();
      makeDeal({ title: 'Castillo showroom', stage: 'decision' });
      makeDeal({ title: 'Signed one', stage: 'closed_won' });
      const requests = recordRequests();
      const { user } = renderApp('/pipeline', { signedIn: true });
      const signed = await screen.findByRole('listitem', { name: 'Signed one' });
      expect(within(signed).queryByRole('button', { name: /^Drag/ })).not.toBeInTheDocument();

      const handle = screen.getByRole('button', { name: 'Drag Castillo showroom' });
      handle.focus();
      await user.keyboard(' ');
      expect(await screen.findByText('Picked up Castillo showroom in Decision. It can move to Closed Won.')).toBeInTheDocument();
      await user.keyboard('{ArrowLeft}');
      expect(
        await screen.findByText('Over Negotiation: Castillo showroom cannot move there. A deal moves to the next stage only.'),
      ).toBeInTheDocument();
      await user.keyboard('{ArrowRight}');
      expect(await screen.findByText('Back over Decision, where Castillo showroom is now.')).toBeInTheDocument();
      await user.keyboard('{ArrowRight}');
      expect(await screen.findByText('Over Closed Won. Drop to move Castillo showroom there.')).toBeInTheDocument();
      await user.keyboard(' ');
      expect(await screen.findByText('Moved Castillo showroom to Closed Won.')).toBeInTheDocument();
      expect(await screen.findByText('"Castillo showroom" moved to Closed Won stage.')).toBeInTheDocument();
      const moved = await within(column('Closed Won')).findByRole('listitem', { name: 'Castillo showroom' });
      expect(nextStageMoves(requests)).toHaveLength(1);
      // Closed Won is the last stage: the card there has no handle, so focus goes to its title.
      await waitFor(() => expect(within(moved).getByRole('link', { name: 'Castillo showroom' })).toHaveFocus());
    });
  });

  describe('virtualised columns', () => {
    it('renders only the deals in view of a long column; scrolling brings the others, each with its place in the column', async () => {
      seedDeals(100, 'qualification');
      const { user } = renderApp('/pipeline', { signedIn: true });
      const qualification = await screen.findByRole('region', { name: 'Qualification' });
      for (const shown of [50, 75, 100]) {
        await user.click(await within(qualification).findByRole('button', { name: 'Show more Qualification' }));
        await waitForCards(() => expect(cards('Qualification')).toHaveLength(shown));
      }
      const deals = list('Qualification');
      const top = renderedCards(deals);
      expect(top.length).toBeLessThan(15);
      expect(top.slice(0, 3)).toEqual(['Deal 100', 'Deal 99', 'Deal 98']);
      const first = within(deals).getByRole('listitem', { name: 'Deal 100' });
      expect(first).toHaveAttribute('aria-posinset', '1');
      expect(first).toHaveAttribute('aria-setsize', '100');

      scrollList(deals, 1_000_000);
      const bottom = renderedCards(deals);
      expect(bottom.length).toBeLessThan(15);
      expect(bottom.at(-1)).toBe('Deal 01');
      expect(within(deals).getByRole('listitem', { name: 'Deal 01' })).toHaveAttribute('aria-posinset', '100');
      expect(within(deals).queryByRole('listitem', { name: 'Deal 100' })).not.toBeInTheDocument();
      // A spacer stands for the deals above, so the list keeps its full scroll height.
      expect(parseFloat(deals.style.getPropertyValue('--virtual-before'))).toBeGreaterThan(80 * 100);
    });
  });

  describe('board paging', () => {
    it("shows each column's first 25 deals with the server's count and total of every deal", async () => {
      seedDeals(30, 'proposal');
      makeDeal({ title: 'Big one', value: '250000', stage: 'negotiation' });
      const requests = recordRequests();
      renderApp('/pipeline', { signedIn: true });

      const proposal = await screen.findByRole('region', { name: 'Proposal' });
      expect(await within(proposal).findByText('$30K · 30 deals')).toBeInTheDocument();
      expect(cards('Proposal')).toEqual(titles(30, 6));
      expect(within(column('Negotiation')).getByText('$250K · 1 deal')).toBeInTheDocument();
      expect(within(column('Qualification')).getByText('$0K · 0 deals')).toBeInTheDocument();
      // One board request; no column page until asked for.
      expect(requests.filter((r) => r.path.startsWith('/api/deals'))).toEqual([
        { method: 'GET', path: '/api/deals/board', search: '?limit=25' },
      ]);
      expect(screen.getByRole('button', { name: 'Show more Proposal' })).toHaveTextContent('Show more');
      expect(screen.queryByRole('button', { name: 'Show more Negotiation' })).not.toBeInTheDocument();
    });

    it('takes the totals from the server even when they cover deals it did not send', async () => {
      makeDeal({ title: 'Only card', value: '5000', stage: 'decision' });
      server.use(
        http.get('/api/deals/board', () =>
          HttpResponse.json(
            ['qualification', 'proposal', 'negotiation', 'decision', 'closed_won'].map((stage) =>
              stage === 'decision'
                ? { stage, count: 1234, value: 9_876_000, deals: db.deals }
                : { stage, count: 0, value: 0, deals: [] },
            ),
          ),
        ),
      );
      renderApp('/pipeline', { signedIn: true });
      const decision = await screen.findByRole('region', { name: 'Decision' });
      expect(await within(decision).findByText('$9,876K · 1234 deals')).toBeInTheDocument();
      expect(within(decision).getAllByRole('listitem')).toHaveLength(1);
    });

    it('"Show more" appends the next 25 of the column until all are shown, then goes away', async () => {
      seedDeals(60, 'qualification');
      const requests = recordRequests();
      const { user } = renderApp('/pipeline', { signedIn: true });
      const more = await screen.findByRole('button', { name: 'Show more Qualification' });
      expect(cards('Qualification')).toHaveLength(25);

      await user.click(more);
      await waitForCards(() => expect(cards('Qualification')).toHaveLength(50));
      expect(cards('Qualification')).toEqual(titles(60, 11));
      expect(within(column('Qualification')).getByText('$60K · 60 deals')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Show more Qualification' }));
      await waitForCards(() => expect(cards('Qualification')).toHaveLength(60));
      expect(cards('Qualification')).toEqual(titles(60, 1));
      expect(screen.queryByRole('button', { name: 'Show more Qualification' })).not.toBeInTheDocument();
      // Focus goes to the column's list, not lost with the button.
      expect(screen.getByRole('list', { name: 'Deals in Qualification' })).toHaveFocus();
      expect(requests.filter((r) => r.path === '/api/deals').map((r) => r.search)).toEqual([
        '?stage=qualification&limit=25&offset=25',
        '?stage=qualification&limit=25&offset=50',
      ]);
    });

    it('a move refetches the pages already shown: the deal leaves its column, counts follow', async () => {
      seedDeals(30, 'decision');
      const requests = recordRequests();
      const { user } = renderApp('/pipeline', { signedIn: true });
      await user.click(await screen.findByRole('button', { name: 'Show more Decision' }));
      await waitForCards(() => expect(cards('Decision')).toHaveLength(30));

      // Deal 01 came with "Show more"; Deal 30 with the board.
      for (const title of ['Deal 01', 'Deal 30']) {
        await user.click(within(revealCard(list('Decision'), title)).getByRole('button', { name: `Actions for ${title}` }));
        await user.click(screen.getByRole('menuitem', { name: 'Move to next stage' }));
        expect(await within(column('Closed Won')).findByRole('listitem', { name: title })).toBeInTheDocument();
      }
      await waitForCards(() => expect(cards('Decision')).toEqual(titles(29, 2)));
      expect(within(column('Decision')).getByText('$28K · 28 deals')).toBeInTheDocument();
      expect(within(column('Closed Won')).getByText('$2K · 2 deals')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Show more Decision' })).not.toBeInTheDocument();
      expect(requests.filter((r) => r.path === '/api/deals').map((r) => r.search)).toEqual([
        '?stage=decision&limit=25&offset=25',
        '?stage=decision&limit=25&offset=25',
        '?stage=decision&limit=25&offset=25',
      ]);
    });

    it('each column scrolls on its own and can be reached from the keyboard', async () => {
      seedDeals(3, 'proposal');
      renderApp('/pipeline', { signedIn: true });
      const list = await within(await screen.findByRole('region', { name: 'Proposal' })).findByRole('list', { name: 'Deals in Proposal' });
      expect(list).toHaveAttribute('tabindex', '0');
      expect(list).toHaveClass('overflow-y-auto', 'max-h-[70vh]');
    });
  });
});
