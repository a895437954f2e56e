// End-to-end: the real server (started by the Makefile) with Debian's Chromium.
//
//   E2E_BASE_URL  where the app is served (default http://127.0.0.1:8080)
//   E2E_EMAIL     an admin account the Makefile created
//   E2E_PASSWORD  its password
//   CHROMIUM_PATH the browser (default /usr/bin/chromium)
//
// Run with `npm run e2e`. On failure a screenshot is written to e2e-artifacts/.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { test } from 'node:test';

import { BASE_URL, EMAIL, PASSWORD, fillAdminLogin, signIn, useBrowser } from './lib.mjs';

const STEP_TIMEOUT_MS = 15_000;
const JOB_TIMEOUT_MS = 45_000;

const session = useBrowser();

async function screenshotOnFailure(page, name, fn) {
  try {
    await fn();
  } catch (error) {
    await mkdir('e2e-artifacts', { recursive: true });
    await page.screenshot({ path: `e2e-artifacts/${name}.png`, fullPage: true }).catch(() => {});
    throw error;
  }
}

test('admin logs in, runs a noop job and follows it to success', { timeout: 120_000 }, async () => {
  const context = await session.browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);

  await screenshotOnFailure(page, 'jobs-flow', async () => {
    // 1. A wrong password shows the server's message inline.
    const form = await fillAdminLogin(page, undefined, `${PASSWORD}-definitely-wrong`);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: 'Login failed. Please check your credentials.' })
      .waitFor();
    assert.match(new URL(page.url()).pathname, /^\/admin\/login$/);

    // 2. The right password lands on the admin dashboard; the Ops page is under Analytics.
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Ops', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin/ops');
    await page.getByRole('heading', { level: 1, name: 'Ops' }).waitFor();
    await page.getByRole('banner').getByText(EMAIL, { exact: true }).waitFor();

    // 3. Run a noop test job: 1.5 s in 3 steps.
    const runForm = page.getByRole('form', { name: 'Run test job' });
    await runForm.getByLabel('Sleep (ms)').fill('1500');
    await runForm.getByLabel('Steps').fill('3');
    await runForm.getByRole('button', { name: 'Run test job' }).click();

    // 4. The detail panel follows it: running with a progress bar, then succeeded.
    const panel = page.getByRole('region', { name: 'Job details' });
    await panel.waitFor();
    const jobId = await panel.getAttribute('data-job-id');
    assert.ok(jobId, 'the detail panel names the new job');
    assert.equal(new URL(page.url()).searchParams.get('job'), jobId);

    await page
      .locator(`section[data-job-id="${jobId}"][data-job-status="running"]`)
      .waitFor({ timeout: JOB_TIMEOUT_MS });
    const bar = panel.getByRole('progressbar', { name: 'Job progress' });
    assert.ok(await bar.isVisible(), 'progress bar is visible while the job runs');

    await page
      .locator(`section[data-job-id="${jobId}"][data-job-status="succeeded"]`)
      .waitFor({ timeout: JOB_TIMEOUT_MS });
    await panel.getByText('succeeded', { exact: true }).waitFor();
    assert.ok(await bar.isVisible());

    // 5. The list (refreshed every 2 s) shows the job as succeeded.
    const row = page.locator(`tr[data-job-id="${jobId}"]`);
    await row.getByText('succeeded', { exact: true }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await row.getByRole('button', { name: jobId }).waitFor();

    // 6. The last hour's chart counts it (refreshed every 10 s).
    await page
      .getByTestId('history-summary')
      .filter({ hasText: /^[1-9]\d* finished, 0\.0 % failed in the last hour\.$/ })
      .waitFor({ timeout: JOB_TIMEOUT_MS });
  });

  await context.close();
});

test('ops pause a kind, its job waits, resume it, then delete the finished job', { timeout: 120_000 }, async () => {
  const context = await session.browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);

  await screenshotOnFailure(page, 'jobs-ops', async () => {
    await signIn(page);
    // The first address of this screen still works.
    await page.goto('/admin/jobs');
    await page.waitForURL((url) => url.pathname === '/admin/ops');
    await page.getByRole('heading', { level: 1, name: 'Ops' }).waitFor();

    // Pause the test jobs (the queue table lists kinds that have jobs; the first test ran one).
    await page.getByRole('button', { name: 'Pause Test job' }).click();
    await page.getByRole('button', { name: 'Resume Test job' }).waitFor();

    const runForm = page.getByRole('form', { name: 'Run test job' });
    await runForm.getByLabel('Sleep (ms)').fill('100');
    await runForm.getByLabel('Steps').fill('1');
    await runForm.getByRole('button', { name: 'Run test job' }).click();
    const panel = page.getByRole('region', { name: 'Job details' });
    await panel.waitFor();
    const jobId = await panel.getAttribute('data-job-id');
    assert.ok(jobId);
    // Paused: still queued two seconds later.
    await page.waitForTimeout(2000);
    assert.equal(await panel.getAttribute('data-job-status'), 'queued');

    await page.getByRole('button', { name: 'Resume Test job' }).click();
    await page
      .locator(`section[data-job-id="${jobId}"][data-job-status="succeeded"]`)
      .waitFor({ timeout: JOB_TIMEOUT_MS });

    await panel.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this job?' });
    await dialog.getByRole('button', { name: 'Delete job' }).click();
    await page.getByText('Select a job to see its details.').waitFor();
    await page.locator(`tr[data-job-id="${jobId}"]`).waitFor({ state: 'detached', timeout: JOB_TIMEOUT_MS });
    await mkdir('e2e-artifacts', { recursive: true });
    await page.screenshot({ path: 'e2e-artifacts/jobs-ops.png', fullPage: true });
  });

  await context.close();
});
