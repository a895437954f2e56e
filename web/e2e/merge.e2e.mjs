// End-to-end: merging duplicates (docs/merge.md) against the real server and Debian's Chromium (see
// jobs.e2e.mjs for the environment variables): two companies of this run share a website; the
// Duplicates screen suggests them, the user keeps one and merges the other into it, and the kept
// company's page then lists the merged company's contact and the merge in its timeline. The test
// makes its own records, named with this run's token, so it runs beside the other browser tests.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ARTIFACTS, BASE_URL, RUN, axeProblems, signIn, toastTitled as toast, useBrowser, watchConsole } from './lib.mjs';

const STEP_TIMEOUT_MS = 15_000;

const session = useBrowser();

const shot = (page, name) => page.screenshot({ path: `${ARTIFACTS}/merge-${name}.png`, fullPage: true });

test('merging a pair of duplicate companies', { timeout: 300_000 }, async (t) => {
  const context = await session.browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const consoleErrors = watchConsole(page);
  const keep = `Harbor Baths ${RUN}`;
  const gone = `Harbor Baths ${RUN} LLC`;
  const person = `Nora Quist${RUN}`;
  const ids = {};

  try {
    await t.test('sign in and make two companies with one website, a contact on the second', async () => {
      await signIn(page);
      for (const [name, extra] of [
        [keep, { city: 'Tulsa', state: 'OK' }],
        [gone, { industry: 'bath-shower', phone: '(918) 555-0142' }],
      ]) {
        const res = await page.request.post('/api/companies', { data: { name, website: `https://www.harbor-${RUN}.example/`, ...extra } });
        assert.equal(res.status(), 201, await res.text());
        ids[name] = (await res.json()).id;
      }
      const res = await page.request.post('/api/contacts', {
        data: { firstName: 'Nora', lastName: `Quist${RUN}`, email: `nora.${RUN}@merge.test`, companyId: ids[gone] },
      });
      assert.equal(res.status(), 201, await res.text());
    });

    await t.test('the Duplicates screen, from the sidebar, suggests the pair', async () => {
      await page.goto('/admin/companies');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Duplicates' }).click();
      await page.getByRole('heading', { level: 1, name: 'Duplicates' }).waitFor();
      await page.goto('/admin/duplicates?type=company&reason=domain');
      const group = page.getByRole('region').filter({ has: page.getByRole('link', { name: keep, exact: true }) });
      await group.waitFor();
      assert.match(await group.getByRole('heading').innerText(), /Same website/);
      await group.getByRole('link', { name: gone, exact: true }).waitFor();
      assert.deepEqual(await axeProblems(page), []);
      await shot(page, 'suggested');
    });

    await t.test('keep one and merge the other into it', async () => {
      const group = page.getByRole('region').filter({ has: page.getByRole('link', { name: keep, exact: true }) });
      await group.getByRole('radio', { name: `Keep ${keep}`, exact: true }).check();
      await group.getByRole('button', { name: 'Merge into the kept record' }).click();
      const dialog = page.getByRole('dialog', { name: `Merge into ${keep}?` });
      await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
      await toast(page, 'Merged 1 company');
      await group.waitFor({ state: 'detached' });
    });

    await t.test("the kept company's page shows the merged contact and the merge in its timeline", async () => {
      await page.goto(`/admin/companies/${ids[keep]}`);
      await page.getByRole('heading', { level: 1, name: keep }).waitFor();
      await page.getByRole('link', { name: person }).first().waitFor();
      const item = page.getByText('Merged a duplicate into this record');
      await item.first().waitFor();
      await page.getByText(`Merged “${gone}” into this company; moved 1 contact`).first().waitFor();
      // The merged company is gone.
      const res = await page.request.get(`/api/companies/${ids[gone]}`);
      assert.equal(res.status(), 404);
      await shot(page, 'survivor');
    });

    assert.deepEqual(consoleErrors, [], 'no console errors or page errors');
  } finally {
    await context.close();
  }
});
