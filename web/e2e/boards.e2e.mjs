// End-to-end: the lead board and the deal pipeline (issue 23 §4) against the real server and
// Debian's Chromium (see jobs.e2e.mjs for the environment variables): a lead dragged one stage with
// the mouse is moved on the server; a drop two stages away is refused while dragging and sends
// nothing; a deal moves a stage from the keyboard (Space, →, Space), announced, with the focus
// following it; a long column renders only the cards in view; both boards pass axe and scroll
// their columns, not the page, at 360 px. The test makes its own leads and deal, named with this
// run's token, so it runs beside the other browser tests on one server.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ARTIFACTS, BACKEND, BASE_URL, RUN, axeProblems, signIn, toastTitled, useBrowser, watchConsole } from './lib.mjs';

const STEP_TIMEOUT_MS = 15_000;
/** Leads the test puts in Qualified: more than the board's first page of 25. */
const LONG_COLUMN = 30;

const session = useBrowser();

// The viewport only: a full-page shot resizes the window, and dnd-kit cancels a drag on resize.
const shot = (page, name) => page.screenshot({ path: `${ARTIFACTS}/boards-${BACKEND}-${name}.png` });

/** Waits for dnd-kit's live region (visually hidden) to say `text`. */
const announced = (page, text) => page.locator('[id^="DndLiveRegion"]').filter({ hasText: text }).waitFor({ state: 'attached' });

/** The centre of a locator's box, in the viewport. */
async function centre(locator) {
  const box = await locator.boundingBox();
  assert.ok(box, 'the element is laid out');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Presses the mouse on `handle` and carries it, in steps (dnd-kit's pointer sensor starts a drag
 * after a few pixels of travel, and tracks each move), to the middle of `column`'s top part; the
 * caller releases it.
 */
async function carry(page, handle, column) {
  await handle.scrollIntoViewIfNeeded();
  const from = await centre(handle);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 12, from.y + 4, { steps: 4 });
  const box = await column.boundingBox();
  assert.ok(box, 'the column is laid out');
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200), { steps: 15 });
}

test('the boards: drag and drop with the mouse and the keyboard, one step at a time', { timeout: 300_000 }, async (t) => {
  const context = await session.browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const consoleErrors = watchConsole(page);
  // Every lead and deal move the page sends.
  const moves = [];
  page.on('request', (request) => {
    if (/\/(pipeline-move|next-stage)$/.test(new URL(request.url()).pathname)) moves.push(request.url());
  });

  const lead = { firstName: 'Dana', lastName: `Dragger${RUN}` };
  const leadName = `${lead.firstName} ${lead.lastName}`;
  const dealTitle = `Keyboard showroom ${RUN}`;
  const ids = {};
  const leadStatus = async () => (await (await page.request.get(`/api/contacts/${ids.lead}`)).json()).status;
  const dealStage = async () => (await (await page.request.get(`/api/deals/${ids.deal}`)).json()).stage;

  try {
    await t.test('sign in and make a new lead, a deal in qualification and a long Qualified column', async () => {
      await signIn(page);
      const contact = await page.request.post('/api/contacts', {
        data: { ...lead, email: `dana.${RUN}@boards.test`, status: 'new_lead' },
      });
      assert.equal(contact.status(), 201, await contact.text());
      ids.lead = (await contact.json()).id;
      const deal = await page.request.post('/api/deals', { data: { title: dealTitle, value: 48000, stage: 'qualification' } });
      assert.equal(deal.status(), 201, await deal.text());
      ids.deal = (await deal.json()).id;
      // A Qualified column longer than its first page, for the virtualised list.
      for (let i = 1; i <= LONG_COLUMN; i++) {
        const res = await page.request.post('/api/contacts', {
          data: { firstName: 'Quinn', lastName: `Long${String(i).padStart(2, '0')}${RUN}`, email: `quinn.${i}.${RUN}@boards.test`, status: 'qualified' },
        });
        assert.equal(res.status(), 201, await res.text());
      }
    });

    const newLeads = page.getByRole('region', { name: 'New Leads' });
    const emailSent = page.getByRole('region', { name: 'Email Sent' });
    const qualified = page.getByRole('region', { name: 'Qualified' });

    await t.test('a lead dragged one stage with the mouse moves, and stays moved after a reload', async () => {
      await page.goto('/admin/leads');
      await page.getByRole('heading', { level: 1, name: 'Lead Pipeline' }).waitFor();
      const card = newLeads.getByRole('listitem', { name: leadName });
      await carry(page, card.getByRole('button', { name: `Drag ${leadName}` }), emailSent);
      await emailSent.getByText('Drop to move to Email Sent').waitFor();
      assert.equal(await emailSent.getAttribute('data-drop'), 'allowed');
      // Only the next stage takes a new lead; the others are marked refused while it is dragged.
      assert.equal(await page.getByRole('region', { name: 'Meeting Scheduled' }).getAttribute('data-drop'), 'refused');
      assert.equal(await qualified.getAttribute('data-drop'), 'refused');
      await shot(page, '01-lead-over-next-stage');
      await page.mouse.up();
      await toastTitled(page, 'Lead Moved');
      await page.getByText(`${leadName} moved to Email Sent.`).waitFor();
      await emailSent.getByRole('listitem', { name: leadName }).waitFor();
      assert.equal(await newLeads.getByRole('listitem', { name: leadName }).count(), 0);
      assert.equal(moves.length, 1);

      await page.reload();
      await emailSent.getByRole('listitem', { name: leadName }).waitFor();
      assert.equal(await leadStatus(), 'email_sent');
    });

    await t.test('a drop two stages away is refused while dragging and sends nothing', async () => {
      const card = emailSent.getByRole('listitem', { name: leadName });
      await carry(page, card.getByRole('button', { name: `Drag ${leadName}` }), qualified);
      await qualified.getByText("Can't move here. A lead moves one stage at a time.").waitFor();
      assert.equal(await qualified.getAttribute('data-drop'), 'refused');
      assert.equal(await qualified.getAttribute('data-over'), 'true');
      await shot(page, '02-lead-refused');
      await page.mouse.up();
      await page.waitForTimeout(500);
      assert.equal(moves.length, 1, 'the refused drop sent no move');
      assert.equal(await qualified.getAttribute('data-drop'), null, 'the cue goes with the drag');

      await page.reload();
      await emailSent.getByRole('listitem', { name: leadName }).waitFor();
      assert.equal(await leadStatus(), 'email_sent');
    });

    await t.test('a deal moves a stage from the keyboard: Space, →, Space; the focus follows it', async () => {
      await page.goto('/admin/pipeline');
      await page.getByRole('heading', { level: 1, name: 'Sales Pipeline' }).waitFor();
      const qualification = page.getByRole('region', { name: 'Qualification' });
      const proposal = page.getByRole('region', { name: 'Proposal' });
      const handle = qualification.getByRole('listitem', { name: dealTitle }).getByRole('button', { name: `Drag ${dealTitle}` });
      await handle.focus();
      await page.keyboard.press('Space');
      await announced(page, `Picked up ${dealTitle} in Qualification. It can move to Proposal.`);
      await page.keyboard.press('ArrowRight');
      await announced(page, `Over Proposal. Drop to move ${dealTitle} there.`);
      await proposal.getByText('Drop to move to Proposal').waitFor();
      await shot(page, '03-deal-keyboard-over-next-stage');
      await page.keyboard.press('Space');
      await announced(page, `Moved ${dealTitle} to Proposal.`);
      await toastTitled(page, 'Deal Moved');
      await page.getByText(`"${dealTitle}" moved to Proposal stage.`).waitFor();
      const moved = proposal.getByRole('listitem', { name: dealTitle });
      await moved.waitFor();
      await moved.getByRole('button', { name: `Drag ${dealTitle}` }).and(page.locator(':focus')).waitFor();
      assert.equal(moves.length, 2);

      await page.reload();
      await proposal.getByRole('listitem', { name: dealTitle }).waitFor();
      assert.equal(await dealStage(), 'proposal');
    });

    await t.test('Escape puts a picked-up deal back; nothing is sent', async () => {
      const proposal = page.getByRole('region', { name: 'Proposal' });
      await proposal.getByRole('button', { name: `Drag ${dealTitle}` }).focus();
      // dnd-kit's keyboard sensor listens for the next key only after the pick-up has rendered:
      // each key waits for the announcement of the one before it.
      await page.keyboard.press('Space');
      await announced(page, `Picked up ${dealTitle} in Proposal. It can move to Negotiation.`);
      await page.keyboard.press('ArrowRight');
      await announced(page, `Over Negotiation. Drop to move ${dealTitle} there.`);
      await page.keyboard.press('Escape');
      await announced(page, `Cancelled. ${dealTitle} stays in Proposal.`);
      await page.waitForTimeout(300);
      assert.equal(moves.length, 2);
      assert.equal(await dealStage(), 'proposal');
    });

    await t.test('both boards: no serious axe violation; at 360 px the columns scroll, not the page', async () => {
      for (const path of ['/admin/leads', '/admin/pipeline']) {
        await page.goto(path);
        await page.locator('section[data-stage] li').first().waitFor();
        await page.waitForLoadState('networkidle');
        assert.deepEqual(await axeProblems(page), [], `${path} is accessible`);
      }
      // A long column renders only the cards in view; scrolled to its end, the last of its first page.
      await page.goto('/admin/leads');
      const list = qualified.getByRole('list', { name: 'Leads in Qualified' });
      await list.getByRole('listitem').first().waitFor();
      assert.ok(Number(await list.getByRole('listitem').first().getAttribute('aria-setsize')) >= LONG_COLUMN);
      assert.ok((await list.getByRole('listitem').count()) < 25, 'the column is virtualised');
      for (let i = 0; i < 50 && (await list.locator('li[aria-posinset="25"]').count()) === 0; i++) {
        await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await page.waitForTimeout(100);
      }
      await list.locator('li[aria-posinset="25"]').waitFor();
      assert.ok((await list.getByRole('listitem').count()) < 25, 'scrolled, it still renders only the cards in view');
      await qualified.getByRole('button', { name: 'Show more Qualified' }).waitFor();

      const phone = await session.browser.newContext({ baseURL: BASE_URL, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
      try {
        const narrow = await phone.newPage();
        narrow.setDefaultTimeout(STEP_TIMEOUT_MS);
        await signIn(narrow);
        for (const path of ['/admin/leads', '/admin/pipeline']) {
          await narrow.goto(path);
          await narrow.locator('section[data-stage] li').first().waitFor();
          const overflow = await narrow.evaluate(() => globalThis.document.documentElement.scrollWidth - globalThis.innerWidth);
          assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow} px at 360 px`);
          const track = narrow.locator('section[data-stage]').first().locator('..');
          assert.ok(await track.evaluate((el) => el.scrollWidth > el.clientWidth), `${path}: the columns scroll in their own track`);
        }
        await narrow.screenshot({ path: `${ARTIFACTS}/boards-${BACKEND}-04-pipeline-360.png`, fullPage: true });
      } finally {
        await phone.close();
      }
    });

    assert.deepEqual(consoleErrors, [], 'no console errors or page errors');
  } finally {
    await context.close();
  }
});
