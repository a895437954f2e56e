// End-to-end: the dense tables of Contacts and Companies (issue 23 §3) against the real server and
// Debian's Chromium (see jobs.e2e.mjs for the environment variables): sorted by the server from a
// header, ticked rows set to a status and deleted, a saved view brought back, companies exported.
// The test makes its own records, named with this run's token and found by searching for it, so it
// runs beside the other browser tests on one server.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { ARTIFACTS, BASE_URL, RUN, axeProblems, chooseOption, signIn, toastTitled as toast, useBrowser, watchConsole } from './lib.mjs';

const STEP_TIMEOUT_MS = 15_000;

const session = useBrowser();

const shot = (page, name) => page.screenshot({ path: `${ARTIFACTS}/tables-${name}.png`, fullPage: true });

/** The names in a table's row headers, top to bottom. */
const names = (table) => table.getByRole('rowheader').allInnerTexts();

/** Polls until the table lists exactly `expected`, in order (the server answers a new sort). */
async function expectNames(table, expected) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const now = (await names(table)).map((n) => n.trim());
    if (JSON.stringify(now) === JSON.stringify(expected)) return;
    if (Date.now() > deadline) assert.deepEqual(now, expected);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The table row whose name (its link) is `name`. */
const rowOf = (page, table, name) => table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

test('contacts and companies as dense tables', { timeout: 300_000 }, async (t) => {
  const context = await session.browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const consoleErrors = watchConsole(page);

  // Three contacts and three companies of this run, made through the api the screens use.
  const people = [
    { firstName: 'Cleo', lastName: `Young${RUN}`, score: 40 },
    { firstName: 'Ava', lastName: `Adams${RUN}`, score: 90 },
    { firstName: 'Ben', lastName: `Mills${RUN}`, score: 70 },
  ];
  const full = (p) => `${p.firstName} ${p.lastName}`;
  const [young, adams, mills] = people.map(full);
  const ids = {};

  try {
    await t.test('sign in and make the records', async () => {
      await signIn(page);
      for (const p of people) {
        const res = await page.request.post('/api/contacts', {
          data: { ...p, email: `${p.firstName.toLowerCase()}.${RUN}@tables.test`, status: 'discovered' },
        });
        assert.equal(res.status(), 201, await res.text());
        ids[full(p)] = (await res.json()).id;
      }
      for (const [name, revenue, state] of [
        [`Bayou Tubs ${RUN}`, 9_000_000, 'LA'],
        [`Acme Bath ${RUN}`, 5_200_000, 'TX'],
        [`Delta Showers ${RUN}`, null, 'AZ'],
      ]) {
        const res = await page.request.post('/api/companies', { data: { name, revenue, state, city: 'Springfield', industry: 'bath-shower' } });
        assert.equal(res.status(), 201, await res.text());
      }
    });

    const contacts = page.getByRole('table', { name: 'Contacts' });

    await t.test('the contacts table sorts by name on the server, from the mouse and the keyboard', async () => {
      await page.goto(`/admin/contacts?q=${RUN}`);
      await page.getByRole('heading', { level: 1, name: 'Contact Intelligence' }).waitFor();
      // Newest first until a header is picked.
      await expectNames(contacts, [mills, adams, young]);
      assert.equal(await contacts.getByRole('columnheader', { name: 'Created' }).getAttribute('aria-sort'), 'descending');
      await contacts.getByRole('button', { name: 'Name', exact: true }).click();
      await expectNames(contacts, [adams, mills, young]);
      assert.equal(new URL(page.url()).search, `?q=${RUN}&sort=name&dir=asc`);
      assert.equal(await contacts.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort'), 'ascending');
      await contacts.getByRole('button', { name: 'Name', exact: true }).focus();
      await page.keyboard.press('Enter');
      await expectNames(contacts, [young, mills, adams]);
      // A reload keeps the order: it is in the address.
      await page.reload();
      await expectNames(contacts, [young, mills, adams]);
      await shot(page, '01-contacts-sorted');
    });

    await t.test('two ticked contacts get a status; their record pages show it', async () => {
      await page.getByRole('checkbox', { name: `Select ${adams}` }).check();
      await page.getByRole('checkbox', { name: `Select ${mills}` }).check();
      const bar = page.getByRole('toolbar', { name: 'Selection actions' });
      await bar.getByText('2 contacts selected').waitFor();
      assert.deepEqual(await axeProblems(page), [], 'the table with its selection bar is accessible');
      await chooseOption(bar.getByLabel('Set status'), 'qualified');
      await bar.getByRole('button', { name: 'Apply' }).click();
      await toast(page, 'Status Updated', '2 contacts set to');
      await bar.waitFor({ state: 'detached' });
      await rowOf(page, contacts, adams).getByText('QUALIFIED').waitFor();
      await shot(page, '02-contacts-status');

      for (const name of [adams, mills]) {
        await rowOf(page, contacts, name).getByRole('link', { name, exact: true }).click();
        await page.getByRole('heading', { level: 1, name }).waitFor();
        await page.getByText('QUALIFIED', { exact: true }).first().waitFor();
        await page.goBack();
        await expectNames(contacts, [young, mills, adams]);
      }
      assert.equal(await rowOf(page, contacts, young).getByText('DISCOVERED').count(), 1, 'the unticked contact kept its status');
    });

    await t.test('a ticked contact is deleted once confirmed', async () => {
      await page.getByRole('checkbox', { name: `Select ${young}` }).check();
      const bar = page.getByRole('toolbar', { name: 'Selection actions' });
      await bar.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete 1 contact?' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      assert.equal((await page.request.get(`/api/contacts/${ids[young]}`)).status(), 200, 'Cancel deletes nothing');
      await bar.getByRole('button', { name: 'Delete' }).click();
      await dialog.getByRole('button', { name: 'Delete 1 contact' }).click();
      await toast(page, 'Contacts Deleted', 'Deleted 1 contact');
      await expectNames(contacts, [mills, adams]);
      assert.equal((await page.request.get(`/api/contacts/${ids[young]}`)).status(), 404);
    });

    const view = `Qualified ${RUN}`;
    await t.test('a saved view keeps the filters, order and hidden columns, and brings them back', async () => {
      await chooseOption(page.getByLabel('Status', { exact: true }), 'qualified');
      await contacts.getByRole('button', { name: 'Score', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('sort') === 'score');
      await page.getByRole('button', { name: 'Columns' }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Email' }).click();
      await page.keyboard.press('Escape');
      assert.equal(await contacts.getByRole('columnheader', { name: 'Email' }).count(), 0);

      await page.getByRole('button', { name: 'Views' }).click();
      const dialog = page.getByRole('dialog', { name: 'Saved views' });
      await dialog.getByLabel('Save the current settings as').fill(view);
      await dialog.getByRole('button', { name: 'Save view' }).click();
      await toast(page, 'View Saved');
      await dialog.getByRole('listitem').filter({ hasText: view }).waitFor();
      await page.keyboard.press('Escape');

      // Everything else: no filter, another order, every column, as cards.
      await page.goto('/admin/contacts?sort=name&dir=asc');
      await page.getByRole('button', { name: 'Columns' }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Email' }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Cards' }).click();
      await page.getByRole('list', { name: 'Contacts' }).waitFor();

      await page.getByRole('button', { name: 'Views' }).click();
      await dialog.getByRole('button', { name: `Apply ${view}` }).click();
      await toast(page, 'View Applied');
      await page.waitForURL((url) => url.searchParams.get('q') === RUN);
      const params = new URL(page.url()).searchParams;
      assert.equal(params.get('status'), 'qualified');
      assert.equal(params.get('sort'), 'score');
      assert.equal(params.get('view'), null, 'the view was saved as a table');
      // Qualified ones only, best score first.
      await expectNames(contacts, [adams, mills]);
      assert.equal(await contacts.getByRole('columnheader', { name: 'Email' }).count(), 0);
      assert.equal((await page.getByLabel('Status', { exact: true }).innerText()).trim(), 'qualified');
      await shot(page, '03-contacts-view');
    });

    await t.test('at 360 px the table scrolls inside its frame, not the page', async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.reload();
      await expectNames(contacts, [adams, mills]);
      const frame = page.getByRole('region', { name: 'Contacts table' });
      const overflow = await page.evaluate(() => globalThis.document.documentElement.scrollWidth - globalThis.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      assert.ok(await frame.evaluate((el) => el.scrollWidth > el.clientWidth), 'the table is wider than its frame');
      // The frame takes the focus, so the keyboard scrolls it too.
      await frame.focus();
      for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => globalThis.document.querySelector('[role="region"][aria-label="Contacts table"]').scrollLeft > 0);
      await shot(page, '04-contacts-360');
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.test('the companies table sorts by revenue and exports what it shows, or what is ticked', async () => {
      await page.goto(`/admin/companies?q=${RUN}`);
      await page.getByRole('heading', { level: 1, name: 'Company Prospects' }).waitFor();
      const companies = page.getByRole('table', { name: 'Companies' });
      await companies.getByRole('rowheader').nth(2).waitFor();
      // The search alone, in the list's order (best score first, then name: the scores are equal).
      await expectNames(companies, [`Acme Bath ${RUN}`, `Bayou Tubs ${RUN}`, `Delta Showers ${RUN}`]);
      await companies.getByRole('button', { name: 'Revenue', exact: true }).click();
      // Largest first, unknown last.
      await expectNames(companies, [`Bayou Tubs ${RUN}`, `Acme Bath ${RUN}`, `Delta Showers ${RUN}`]);
      assert.equal(await companies.getByRole('columnheader', { name: 'Revenue' }).getAttribute('aria-sort'), 'descending');
      await companies.getByRole('button', { name: 'Revenue', exact: true }).click();
      await expectNames(companies, [`Acme Bath ${RUN}`, `Bayou Tubs ${RUN}`, `Delta Showers ${RUN}`]);
      await shot(page, '05-companies-sorted');

      const [all] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export (3)' }).click()]);
      assert.equal(all.suggestedFilename(), 'companies-export.csv');
      const csv = await readFile(await all.path(), 'utf8');
      const lines = csv.trim().split(/\r?\n/);
      assert.equal(lines[0], 'Name,Industry,Status,Score,Revenue,Employees,City,State,Website,Phone');
      assert.equal(lines.length, 4, csv);
      assert.ok(lines.some((l) => l.startsWith(`Bayou Tubs ${RUN},bath-shower,`) && l.includes(',9000000,')), csv);
      await toast(page, 'Export Complete');

      await page.getByRole('checkbox', { name: `Select Delta Showers ${RUN}` }).check();
      const [picked] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('toolbar', { name: 'Selection actions' }).getByRole('button', { name: 'Export selected' }).click(),
      ]);
      const one = (await readFile(await picked.path(), 'utf8')).trim().split(/\r?\n/);
      assert.equal(one.length, 2);
      assert.ok(one[1].startsWith(`Delta Showers ${RUN},`), one.join('\n'));
    });

    assert.deepEqual(consoleErrors, [], 'no console errors or page errors');
  } finally {
    await context.close();
  }
});
