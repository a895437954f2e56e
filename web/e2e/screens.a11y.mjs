// Every screen of the production build, on the demo data, in Chromium (issue 23 §6, §7):
// - axe-core finds no critical or serious violation at 1280 px, signed out and signed in;
// - at 360 px no screen scrolls sideways;
// - each screen's largest contentful paint is measured and printed (a figure, not an assertion:
//   timings vary with the machine).
// The routes are the build's own list (dist/routes.json, written from the router); an `:id` segment
// takes a real record of the demo data. scripts/e2e.sh runs this file against a server seeded with
// the demo data.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { BASE_URL, axeProblems, signIn as signInPage, useBrowser } from './lib.mjs';

const ARTIFACTS = 'e2e-artifacts/screens';
const STEP_TIMEOUT_MS = 20_000;
/** Screens without a session; the rest are visited signed in. */
const PUBLIC = new Set(['/dealers', '/thank-you', '/privacy-policy', '/terms-of-service', '/admin/login', '/login']);

const session = useBrowser({ artifacts: ARTIFACTS });

/** The app's routes, the /admin twins left out (the same screen), `:id` filled from `ids`. */
async function screens(ids) {
  // The build the server serves (scripts/e2e.sh exports WEB_DIST), else web/dist.
  const dist = process.env.WEB_DIST ? new URL(`file://${process.env.WEB_DIST.replace(/\/?$/, '/')}`) : new URL('../dist/', import.meta.url);
  const list = JSON.parse(await readFile(new URL('routes.json', dist), 'utf8'));
  return list
    .filter((p) => !p.includes('*') && (!p.startsWith('/admin/') || p === '/admin/login'))
    .map((p) => p.replace(/^\/(companies|contacts|deals)\/:id$/, (_, kind) => `/${kind}/${ids[kind]}`))
    .filter((p) => !p.includes(':'));
}

/** Signs the admin in within `context` (its cookie then serves every page of it). */
async function signIn(context) {
  const page = await context.newPage();
  await signInPage(page);
  await page.close();
}

/** The first record of a list endpoint, for the record pages. */
async function firstId(context, path) {
  const res = await context.request.get(`${BASE_URL}${path}?limit=1`);
  assert.equal(res.status(), 200, `${path}: ${await res.text()}`);
  const body = await res.json();
  const rows = Array.isArray(body) ? body : (body.items ?? body.deals ?? []);
  assert.ok(rows[0]?.id, `${path} has a record in the demo data`);
  return rows[0].id;
}

/** Opens a screen and waits until it has drawn its data (its heading, then a quiet network). */
async function open(page, path) {
  const res = await page.goto(`${BASE_URL}${path}`);
  assert.ok(res && res.status() < 400, `${path} answered ${res?.status()}`);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
}

const lcpOf = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(Math.round(entries[entries.length - 1].startTime));
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(null), 3000);
      }),
  );

test('every screen: accessible, no sideways scroll at 360 px, LCP measured', { timeout: 900_000 }, async () => {
  const desktop = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const mobile = await session.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const problems = [];
  const figures = [];
  try {
    await signIn(desktop);
    await signIn(mobile);
    const ids = {
      companies: await firstId(desktop, '/api/companies'),
      contacts: await firstId(desktop, '/api/contacts'),
      deals: await firstId(desktop, '/api/deals'),
    };
    const anonymous = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
    // `/` is the landing page signed out and the dashboard signed in.
    const visits = [{ path: '/', anon: true }, ...(await screens(ids)).map((path) => ({ path, anon: PUBLIC.has(path) }))];
    for (const { path, anon } of visits) {
      const label = anon && path === '/' ? '/ (landing)' : path;
      const context = anon ? anonymous : desktop;
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      try {
        await open(page, path);
        const lcp = await lcpOf(page);
        for (const p of await axeProblems(page)) problems.push(`${label} @1280: ${p}`);
        const narrow = await (anon ? anonymous : mobile).newPage();
        narrow.setDefaultTimeout(STEP_TIMEOUT_MS);
        if (anon) await narrow.setViewportSize({ width: 360, height: 740 });
        await open(narrow, path);
        const overflow = await narrow.evaluate(() => globalThis.document.documentElement.scrollWidth - globalThis.innerWidth);
        if (overflow > 0) problems.push(`${label} @360: scrolls sideways by ${overflow} px`);
        const name = `${anon ? 'anon' : 'user'}${path.replaceAll('/', '_')}`;
        await narrow.screenshot({ path: `${ARTIFACTS}/360${name}.png`, fullPage: true });
        await narrow.close();
        figures.push({ path: label, lcp });
      } catch (e) {
        problems.push(`${label}: ${e instanceof Error ? e.message.split('\n')[0] : e}`);
      } finally {
        await page.close();
      }
    }
    await anonymous.close();
  } finally {
    await desktop.close();
    await mobile.close();
  }
  console.log('largest contentful paint (ms) per screen:');
  for (const f of figures) console.log(`  ${f.path.padEnd(34)} ${f.lcp ?? 'n/a'}`);
  const measured = figures.map((f) => f.lcp).filter((v) => v !== null);
  console.log(`lcp worst ${Math.max(...measured)} ms over ${measured.length} screens`);
  assert.deepEqual(problems, []);
});
