// The outreach loop a sales team runs, end to end in Chromium against the real server (issue 21):
// an admin adds a user; the user signs in, writes a sequence, finds companies with a discovery scan
// and enrolls their contacts; the scheduler sends through the loopback SMTP sink (scripts/e2e.sh);
// a reply posted to the inbound webhook stops the contact's sequence; every page shows the same
// counts. scripts/e2e.sh runs this file on SQLite and on Postgres (E2E_BACKEND).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { ARTIFACTS, BACKEND, BASE_URL, RUN, chooseOption, signIn, submitAndClose, useBrowser, watchConsole } from './lib.mjs';
import { readSinkLog } from './smtp-sink.mjs';

const SMTP_LOG = process.env.E2E_SMTP_LOG;
const INBOUND_TOKEN = process.env.INBOUND_PARSE_TOKEN;
const STEP_TIMEOUT_MS = 15_000;
// The scheduler looks for due steps every 5 s; a send job then runs.
const SEND_TIMEOUT_MS = 60_000;
const USER = { first: 'Sam', last: 'Seller', email: `sam.${RUN}@prospector.test`, password: `Seller-${RUN}-pass!` };
const SEQUENCE = `Accessible bath intro ${RUN}`;

const session = useBrowser();

before(() => {
  assert.ok(SMTP_LOG, 'E2E_SMTP_LOG is where the SMTP sink writes (scripts/e2e.sh)');
  assert.ok(INBOUND_TOKEN, 'INBOUND_PARSE_TOKEN authenticates the inbound reply webhook');
});

const shot = (page, name) => page.screenshot({ path: `${ARTIFACTS}/journey-${BACKEND}-${name}.png`, fullPage: true });

/** Polls `probe` until it returns a truthy value. */
async function eventually(what, probe, timeoutMs = SEND_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The number in a named figure group ('Emails sent', 'Replied'); 0 where it reads "No emails sent". */
async function figure(scope, name) {
  const text = await scope.getByRole('group', { name, exact: true }).innerText();
  return Number(text.match(/[\d,]+/)?.[0].replace(/,/g, '') ?? 0);
}

/** A reply to `message` as SendGrid Inbound Parse posts it. */
async function postReply(message) {
  const form = new FormData();
  const to = message.headers.from;
  form.set('headers', `From: ${message.to[0]}\r\nTo: ${to}\r\nSubject: Re: ${message.headers.subject}\r\nMessage-ID: <reply.${RUN}@dealer.test>\r\nIn-Reply-To: ${message.headers['message-id']}\r\n`);
  form.set('from', message.to[0]);
  form.set('text', 'Interested, call me next week.');
  const res = await fetch(`${BASE_URL}/api/email/inbound?token=${encodeURIComponent(INBOUND_TOKEN)}`, { method: 'POST', body: form });
  assert.equal(res.status, 200, await res.text());
}

test('a sales team runs its outreach loop', { timeout: 600_000 }, async (t) => {
  const context = await session.browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const consoleErrors = watchConsole(page);
  let enrolled = 0;
  // The journey's own scan: other browser tests may have run scans on this server.
  let scanJob = '';
  let baseline = { sent: 0, replied: 0 };
  // Each step builds on the one before: after a failure the rest are skipped, with a screenshot.
  let failed = false;
  const step = (name, fn) =>
    t.test(name, { skip: failed && 'an earlier step failed' }, async () => {
      try {
        await fn();
      } catch (error) {
        failed = true;
        await shot(page, `failed-${name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
        throw error;
      }
    });

  try {
    await step('the admin adds a user, who signs in at /login', async () => {
      await signIn(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page.getByRole('button', { name: 'Add user' }).click();
      const add = page.getByRole('dialog', { name: 'Add user' });
      await add.getByLabel('Email').fill(USER.email);
      await add.getByLabel('First name').fill(USER.first);
      await add.getByLabel('Last name').fill(USER.last);
      await add.getByLabel('Password').fill(USER.password);
      await chooseOption(add.getByLabel('Role'), 'User');
      await add.getByRole('button', { name: 'Add user' }).click();
      const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: USER.email });
      await row.waitFor();
      assert.match(await row.innerText(), /User[\s\S]*Active/);
      await shot(page, '01-users');
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/login');

      // An ordinary user: /api/login opens the user sign-in page.
      await page.goto('/api/login');
      await page.waitForURL((url) => url.pathname === '/login');
      const login = page.getByRole('form', { name: 'Sign in' });
      await login.getByLabel('Email').fill(USER.email);
      await login.getByLabel('Password').fill(USER.password);
      await login.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByText(`${USER.first} ${USER.last}`).first().waitFor();
      // Other browser tests may have sent mail on this server: the journey counts from here.
      const performance = page.getByRole('region', { name: 'Campaign Performance' });
      await performance.getByRole('group', { name: 'Emails sent', exact: true }).waitFor();
      baseline = { sent: await figure(performance, 'Emails sent'), replied: 0 };
      // 'Replied' is shown once anything was sent.
      if (await performance.getByRole('group', { name: 'Replied', exact: true }).count()) baseline.replied = await figure(performance, 'Replied');
      // No admin screens for a user.
      await page.goto('/users');
      await page.getByRole('heading', { name: 'Admins only' }).waitFor();
    });

    await step('the user writes a sequence with a merge field and turns it on', async () => {
      await page.goto('/email-sequences');
      await page.getByRole('button', { name: 'Create Sequence' }).click();
      const create = page.getByRole('form', { name: 'Create sequence' });
      await create.getByLabel('Sequence Name').fill(SEQUENCE);
      await create.getByLabel('Description').fill('First touch for accessible bath dealers');
      await create.getByRole('button', { name: 'Create Sequence' }).click();
      // A new sequence opens at once.
      const detail = page.getByRole('region', { name: `Sequence ${SEQUENCE}` });
      await detail.getByRole('button', { name: 'Add Step' }).click();
      const step = page.getByRole('form', { name: 'Add step' });
      await step.getByLabel('Step Name').fill('Intro email');
      await step.getByLabel('Delay Before This Step (minutes)').fill('0');
      await step.getByLabel('Subject').fill('Accessible baths for {{companyName}}');
      await step.getByLabel('Body').fill('Hello {{firstName|there}},\n\nWe help dealers like you grow.');
      await submitAndClose(step, 'Add Step');
      await detail.getByRole('listitem', { name: 'Intro email' }).waitFor();
      // A follow-up three days later: what a reply must stop.
      await detail.getByRole('button', { name: 'Add Step' }).click();
      await step.getByLabel('Step Name').fill('Follow-up');
      await step.getByLabel('Delay Before This Step (minutes)').fill('4320');
      await step.getByLabel('Subject').fill('Following up, {{firstName|there}}');
      await step.getByLabel('Body').fill('Did you get a chance to look?');
      await submitAndClose(step, 'Add Step');
      await detail.getByRole('listitem', { name: 'Follow-up' }).waitFor();
      await detail.getByRole('button', { name: 'Activate sequence' }).click();
      await detail.getByText('active', { exact: true }).first().waitFor();
      await shot(page, '02-sequence');
    });

    await step('a discovery scan finds companies; their contacts join the sequence in one action', async () => {
      await page.goto('/discovery');
      await page.getByRole('heading', { level: 1, name: 'Prospect Discovery' }).waitFor();
      const search = page.getByRole('form', { name: 'Discovery search' });
      await chooseOption(search.getByLabel('Target region'), 'Texas');
      await chooseOption(search.getByLabel('Revenue range'), '$5-10M');
      await chooseOption(search.getByLabel('Company type'), 'Accessible Bath');
      await search.getByRole('button', { name: 'Start Discovery' }).click();
      const results = page.getByRole('region', { name: 'Discovery results' });
      await results.locator('tbody tr[data-company-id]').first().waitFor({ timeout: 60_000 });
      scanJob = new URL(page.url()).searchParams.get('job') ?? '';
      assert.ok(scanJob, `the scan's job is in the address: ${page.url()}`);
      const rows = results.locator('tbody tr[data-company-id]');
      for (const i of [0, 1, 2]) await rows.nth(i).getByRole('checkbox').check();
      const bar = page.getByRole('toolbar', { name: 'Selection actions' });
      assert.match(await bar.innerText(), /3 companies selected/);
      await bar.getByRole('button', { name: 'Add to sequence' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add to sequence' });
      await chooseOption(dialog.getByLabel('Sequence'), `${SEQUENCE} (active)`);
      const preview = dialog.getByLabel('Who will be enrolled');
      await preview.waitFor();
      const [, selected, reachable] = (await preview.innerText()).match(/([\d,]+) selected: ([\d,]+) will be enrolled/) ?? [];
      assert.ok(Number(reachable) > 0 && Number(reachable) <= Number(selected), await preview.innerText());
      await shot(page, '03-add-to-sequence');
      await dialog.getByRole('button', { name: `Enroll ${reachable}` }).click();
      const result = dialog.getByRole('status', { name: 'Enrollment result' });
      await result.waitFor();
      assert.match(await result.innerText(), new RegExp(`Enrolled ${reachable} of ${selected} in ${SEQUENCE}`));
      enrolled = Number(reachable);
      await dialog.getByRole('button', { name: 'Done' }).click();
    });

    await step('the contacts list enrolls all matching; those already in are counted, not added twice', async () => {
      await page.goto('/contacts?region=Texas');
      await page.getByRole('button', { name: /^Select all [\d,]+ matching$/ }).click();
      const bar = page.getByRole('toolbar', { name: 'Selection actions' });
      await bar.getByRole('button', { name: 'Add to sequence' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add to sequence' });
      await chooseOption(dialog.getByLabel('Sequence'), `${SEQUENCE} (active)`);
      const preview = dialog.getByLabel('Who will be enrolled');
      await preview.waitFor();
      assert.match(await preview.innerText(), new RegExp(`Skipped: .*${enrolled} ${enrolled === 1 ? 'is' : 'are'} already enrolled`));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });

    await step('the user emails one contact from the app; it goes out and is in the contact history', async () => {
      await page.goto('/contacts?region=Texas&view=cards');
      const card = page.getByRole('list', { name: 'Contacts' }).getByRole('listitem').first();
      const name = await card.getAttribute('aria-label');
      assert.match(await card.innerText(), /·|, TX/, 'the card shows the company');
      await card.getByRole('button', { name: `Email ${name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Email ${name}` });
      await dialog.getByLabel('Subject').fill(`Showroom visit ${RUN}`);
      await dialog.getByLabel('Message').fill('Hello {{firstName}}, could we visit your showroom next week?');
      await dialog.getByRole('button', { name: 'Send email' }).click();
      await page.locator('[role="status"], [role="alert"]').filter({ hasText: 'Email Sent' }).first().waitFor({ timeout: 30_000 });
      const sent = await eventually('the message in the SMTP sink', () =>
        readSinkLog(SMTP_LOG).find((m) => m.headers.subject === `Showroom visit ${RUN}`),
      );
      assert.ok(!sent.raw.includes('{{firstName}}'), 'the merge field is filled');
      await card.getByRole('button', { name: `Email history of ${name}` }).click();
      const history = page.getByRole('dialog', { name: 'Email Interaction History' });
      const messages = history.getByRole('region', { name: 'Messages' });
      await messages.getByText(`Showroom visit ${RUN}`).waitFor();
      assert.match(await messages.innerText(), /Sent/);
      await shot(page, '05-contact-history');
      await page.keyboard.press('Escape');
    });

    let first;
    await step('the scheduler sends the step to every enrolled contact', async () => {
      const sent = await eventually(`${enrolled} messages in the SMTP sink`, () => {
        const mine = readSinkLog(SMTP_LOG).filter((m) => m.headers.subject?.startsWith('Accessible baths for '));
        return mine.length >= enrolled ? mine : null;
      });
      assert.equal(sent.length, enrolled, 'one message per enrolled contact, none twice');
      first = sent[0];
      assert.ok(!/\{\{/.test(first.headers.subject), `merge fields are filled: ${first.headers.subject}`);
      assert.ok(first.headers['list-unsubscribe'], 'every message can be unsubscribed from');
    });

    await step('a reply stops that contact in the sequence', async () => {
      await postReply(first);
      await page.goto('/email-sequences');
      await page.getByRole('button', { name: `Open ${SEQUENCE}` }).click();
      const detail = page.getByRole('region', { name: `Sequence ${SEQUENCE}` });
      await detail.getByRole('tab', { name: 'Enrollments' }).click();
      const row = page.getByRole('table', { name: 'Enrollments' }).getByRole('row').filter({ hasText: first.to[0] });
      await eventually('the replied enrollment', async () => {
        await page.reload();
        return /replied/i.test(await row.innerText().catch(() => ''));
      }, 30_000);
      await shot(page, '06-replied');
    });

    let campaignSent = 0;
    await step('a bulk campaign for two picked contacts, written in the composer, sent with Send Now', async () => {
      const name = `Showroom invite ${RUN}`;
      await page.goto('/contacts?region=Texas&view=cards');
      const cards = page.getByRole('list', { name: 'Contacts' }).getByRole('listitem');
      for (const i of [1, 2]) await cards.nth(i).getByRole('checkbox').check();
      await page.getByRole('toolbar', { name: 'Selection actions' }).getByRole('button', { name: 'New bulk campaign' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Bulk Email Campaign' });
      await dialog.getByLabel('Campaign name').fill(name);
      await dialog.getByRole('tab', { name: 'Message' }).click();
      await dialog.getByLabel('Subject', { exact: true }).fill(`See the new walk-in tubs, {{firstName|friend}}`);
      await dialog.getByLabel('Body', { exact: true }).fill('Our Dallas showroom has the new line on display.');
      await dialog.getByRole('tab', { name: 'Target Contacts' }).click();
      const recipients = dialog.getByLabel('Recipients');
      assert.match(await recipients.innerText(), /2 selected, 2 will receive it/);
      await dialog.getByRole('button', { name: 'Create Campaign' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.goto('/email-campaigns');
      const card = page.getByRole('listitem', { name });
      await card.getByRole('button', { name: `Send Now ${name}` }).click();
      const sent = await eventually('the campaign in the SMTP sink', () => {
        const mine = readSinkLog(SMTP_LOG).filter((m) => m.headers.subject?.startsWith('See the new walk-in tubs, '));
        return mine.length >= 2 ? mine : null;
      });
      assert.equal(sent.length, 2, 'each picked contact once');
      campaignSent = sent.length;
      // The campaign's card counts what the sink received.
      const sentFigure = card.locator('dt:text-is("Sent") + dd');
      await eventually('the card to count 2 sent', async () => (await sentFigure.innerText()) === '2', STEP_TIMEOUT_MS);
      await shot(page, '06b-campaign');
    });

    await step('every page tells the same counts', async () => {
      // The sequence's first step: one message per enrolled contact, one reply.
      await page.goto('/email-sequences');
      await page.getByRole('button', { name: `Open ${SEQUENCE}` }).click();
      const intro = page.getByRole('list', { name: 'Steps' }).getByRole('listitem', { name: 'Intro email' });
      await eventually('the step figures', async () => {
        const text = await intro.innerText();
        return text.includes(`Sent ${enrolled} `) && text.includes('Replied 1 ');
      }, STEP_TIMEOUT_MS);

      // The dashboard: the sequence's messages and the one written by hand, the same reply.
      await page.goto('/');
      const performance = page.getByRole('region', { name: 'Campaign Performance' });
      await performance.getByRole('group', { name: 'Emails sent', exact: true }).waitFor();
      assert.equal(await figure(performance, 'Emails sent'), baseline.sent + enrolled + 1 + campaignSent);
      assert.equal(await figure(performance, 'Replied'), baseline.replied + 1);
      const feed = page.getByRole('region', { name: 'Recent Activity' });
      await feed.getByRole('link', { name: /Sent 2 emails for "Showroom invite/ }).waitFor();
      // The sequence's batch and the scan are older: further down the feed.
      await feed.getByRole('button', { name: 'Show more activity' }).click();
      await feed.getByRole('link', { name: new RegExp(`Sent ${enrolled} emails? for sequence "${SEQUENCE}"`) }).waitFor();
      await feed.locator(`a[href="/discovery?job=${scanJob}"]`).filter({ hasText: /Discovery scan finished/ }).waitFor();
      await shot(page, '07-dashboard');

      // The contact who replied: one sent, one reply.
      await page.goto(`/contacts?q=${encodeURIComponent(first.to[0])}&view=cards`);
      const card = page.getByRole('list', { name: 'Contacts' }).getByRole('listitem').first();
      await card.getByRole('button', { name: /^Email history of / }).click();
      const history = page.getByRole('dialog', { name: 'Email Interaction History' });
      await history.getByRole('group', { name: 'Sent', exact: true }).waitFor();
      assert.equal(await figure(history, 'Sent'), 1);
      assert.equal(await figure(history, 'Replied'), 1);
      await page.keyboard.press('Escape');
    });

    await step('the palette opens the contact who replied; their page tells the story; a note and a task from there', async () => {
      await page.goto('/');
      // The shortcut works once the shell is drawn (its search button is there).
      await page.getByRole('button', { name: /^Search…/ }).waitFor();
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Search and commands' });
      await palette.getByRole('combobox').fill(first.to[0]);
      // An address names one contact: the only result, picked with Enter.
      await palette.getByRole('group', { name: 'Contacts · 1' }).waitFor();
      assert.equal(await palette.getByRole('option').count(), 1);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => /^\/contacts\/[0-9A-Z]{26}$/.test(url.pathname));
      const timeline = page.getByRole('list', { name: 'Timeline' });
      // Newest first: the reply, the email it answered, the enrollment that sent it.
      await timeline.getByText(/^Replied to /).first().waitFor();
      const titles = await timeline.locator(':scope > li').allInnerTexts();
      const at = (re) => titles.findIndex((t) => re.test(t));
      assert.ok(at(/Replied to /) >= 0 && at(/Email sent: /) > at(/Replied to /), `reply above the email: ${titles.join(' | ')}`);
      assert.ok(at(new RegExp(`Enrolled in sequence .${SEQUENCE}`)) > at(/Email sent: /), `the enrollment below the email: ${titles.join(' | ')}`);
      await shot(page, '08-contact-record');

      const note = page.getByRole('form', { name: 'Add note' });
      await note.getByLabel('Note').fill(`Wants a showroom visit ${RUN}`);
      await note.getByRole('button', { name: 'Add note' }).click();
      await timeline.getByText(`Wants a showroom visit ${RUN}`).waitFor();
      const task = page.getByRole('form', { name: 'Add task' });
      await task.getByLabel('Task').fill(`Send the brochure ${RUN}`);
      await task.getByRole('button', { name: 'Add task' }).click();
      // Ticked, the task leaves the open list for the (collapsed) done one.
      await page.getByRole('checkbox', { name: `Complete Send the brochure ${RUN}` }).click();
      await page.getByRole('list', { name: 'Open tasks' }).getByText(`Send the brochure ${RUN}`).waitFor({ state: 'detached' });
      await timeline.getByText(`Task completed: “Send the brochure ${RUN}”`).waitFor();
      // The page again from its address: everything is kept.
      await page.reload();
      await timeline.getByText(`Wants a showroom visit ${RUN}`).waitFor();
      await shot(page, '09-contact-record-note-task');
    });

    assert.deepEqual(consoleErrors, [], 'no console errors or page errors');
  } finally {
    await context.close();
  }
});
