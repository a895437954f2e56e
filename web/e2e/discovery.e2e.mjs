// End-to-end: discovery's sources on a fresh install (nothing configured, so the catalog of demo
// companies is the one source). The form offers it, a scan with Territory Optimization runs, and
// every company found carries the "Demo data" label, there and on its page and in the companies list,
// and so do the people found with it;
// the sources panel and the territory insight (with the Census market sizing, or its "no figures
// loaded" note) show under the results.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BASE_URL, axeProblems, chooseOption, signIn, toastTitled, useBrowser, watchConsole } from './lib.mjs';

const session = useBrowser();

test('a scan of demo data is labelled as such, with its sources and territory insight', { timeout: 120_000 }, async () => {
  const context = await session.browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors = watchConsole(page);
  try {
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discovery', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Prospect Discovery' }).waitFor();
    const search = page.getByRole('form', { name: 'Discovery search' });
    const sources = search.getByRole('group', { name: 'Sources' });
    const demo = sources.getByRole('checkbox', { name: /Demo data/ });
    await demo.waitFor();
    assert.equal(await sources.getByRole('checkbox').count(), 1, 'only configured sources are offered');
    await demo.check();
    await chooseOption(search.getByLabel('Target region'), 'Texas');
    await chooseOption(search.getByLabel('Revenue range'), '$5-10M');
    await chooseOption(search.getByLabel('Company type'), 'Bath & Shower');
    await search.getByRole('switch', { name: 'Territory Optimization' }).check();
    await search.getByRole('button', { name: 'Start Discovery' }).click();
    await toastTitled(page, 'Discovery Complete');

    const panel = page.getByRole('region', { name: 'Sources searched' });
    await panel.getByText(/Demo data\s*\d+ found/).waitFor();
    await panel.getByText(/invented companies/).waitFor();
    const results = page.getByRole('region', { name: 'Discovery results' });
    const rows = results.getByRole('rowheader');
    const n = await rows.count();
    assert.ok(n > 0, 'the scan found companies');
    for (let i = 0; i < Math.min(n, 10); i += 1) {
      assert.match(await rows.nth(i).innerText(), /Demo data/);
    }
    const territory = page.getByRole('region', { name: 'Territory insight' });
    await territory.getByRole('heading', { name: /Market size/ }).waitFor();
    await territory.getByText(/Companies by city/).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    // No sideways scroll on a phone.
    await page.setViewportSize({ width: 360, height: 800 });
    const wide = await page.evaluate(() => globalThis.document.documentElement.scrollWidth > globalThis.innerWidth);
    assert.equal(wide, false, 'no sideways scroll at 360 px');

    // The same companies keep the label on their own page and in the companies list.
    await page.setViewportSize({ width: 1280, height: 900 });
    const first = rows.first();
    const name = (await first.getByRole('link').first().innerText()).trim();
    await first.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    assert.match(await page.getByTestId('page-header').innerText(), /Demo data/);
    await page.getByRole('region', { name: 'Found by' }).getByText(/not a verified record/).waitFor();
    // Its people were generated with it, and their page says so too.
    const person = page.getByRole('region', { name: 'Contacts', exact: true }).getByRole('link').first();
    const personName = (await person.innerText()).trim();
    await person.click();
    await page.getByRole('heading', { level: 1, name: personName }).waitFor();
    assert.match(await page.getByTestId('page-header').innerText(), /Demo data/);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.goto(`/companies?q=${encodeURIComponent(name)}`);
    const listed = page.getByRole('table', { name: 'Companies' }).getByRole('row').filter({ hasText: name }).first();
    await listed.waitFor();
    assert.match(await listed.innerText(), /Demo data/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
