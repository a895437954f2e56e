// What every browser test file shares: the server and admin account scripts/e2e.sh started, one
// headless Chromium per file, the admin sign-in, axe-core, toasts, console errors and the app's
// Select (a Radix listbox, not a native <select>).
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before } from 'node:test';

import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.E2E_BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
export const EMAIL = process.env.E2E_EMAIL;
export const PASSWORD = process.env.E2E_PASSWORD;
export const BACKEND = process.env.E2E_BACKEND || 'sqlite';
export const ARTIFACTS = 'e2e-artifacts';
/** Unique per run, so a re-run against the same server does not collide with earlier data. */
export const RUN = Date.now().toString(36);

const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Debian's Chromium, headless; `CHROMIUM_PATH` points elsewhere. */
export const launchBrowser = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

/**
 * One browser for the file's tests: launched before them (after checking the admin account is
 * named and making `artifacts`), closed after. Read it as `session.browser` inside a test.
 */
export function useBrowser({ artifacts = ARTIFACTS } = {}) {
  const session = { browser: undefined };
  before(async () => {
    assert.ok(EMAIL, 'E2E_EMAIL must name the admin account the server was seeded with');
    assert.ok(PASSWORD, 'E2E_PASSWORD must be set');
    await mkdir(artifacts, { recursive: true });
    session.browser = await launchBrowser();
  });
  after(async () => {
    await session.browser?.close();
  });
  return session;
}

/** Fills the admin login form (without submitting it); answers the form. */
export async function fillAdminLogin(page, email = EMAIL, password = PASSWORD) {
  await page.goto(`${BASE_URL}/admin/login`);
  const form = page.getByRole('form', { name: 'Admin login' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  return form;
}

/** Signs the admin in and waits for the dashboard's address. */
export async function signIn(page, email = EMAIL, password = PASSWORD) {
  const form = await fillAdminLogin(page, email, password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/admin');
}

/** The page's critical and serious axe-core violations, one line each (an empty list passes). */
export async function axeProblems(page) {
  await page.addScriptTag({ content: AXE_SOURCE });
  const result = await page.evaluate(() => globalThis.axe.run(globalThis.document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`);
}

/** Waits for a toast with this title (and text, when given), a status or an alert. */
export const toastTitled = (page, title, text = '') =>
  page.locator('[role="status"], [role="alert"]').filter({ hasText: title }).filter({ hasText: text }).first().waitFor();

/**
 * Collects the page's console errors and uncaught exceptions, but not the 401s of the signed-out
 * session probes, nor messages `expected(msg)` says the test causes on purpose.
 */
export function watchConsole(page, expected = () => false) {
  const errors = [];
  page.on('console', (msg) => {
    // Signed out, the session probes (GET /api/auth/user, /api/admin/user) answer 401 by design; Chromium logs them.
    const probe = /\/api\/(admin|auth)\/user$/.test(msg.location().url) && msg.text().includes('401');
    if (msg.type() === 'error' && !probe && !expected(msg)) errors.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

/**
 * Chooses an option of the app's Select (`select`: its trigger, e.g. `form.getByLabel('Role')`) as a
 * user does: opens the listbox, clicks the option named `option` (a string matches the whole name).
 */
export async function chooseOption(select, option) {
  await select.click();
  const listbox = select.page().getByRole('listbox');
  await listbox.getByRole('option', typeof option === 'string' ? { name: option, exact: true } : { name: option }).click();
  await listbox.waitFor({ state: 'detached' });
}

/**
 * Submits `form` with its button named `label` and waits for the form to close, as a saved dialog
 * does; if it stays open, fails with what the form says (a field error, the server's message).
 */
export async function submitAndClose(form, label, timeout) {
  await form.getByRole('button', { name: label, exact: true }).click();
  try {
    await form.waitFor({ state: 'detached', timeout });
  } catch (error) {
    const said = await form.innerText().catch(() => '(the form is gone)');
    throw new Error(`the form did not close after "${label}"; it says:\n${said}`, { cause: error });
  }
}
