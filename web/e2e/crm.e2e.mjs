// End-to-end: the CRM screens against the real server and Debian's Chromium (see jobs.e2e.mjs for
// the environment variables), on SQLite and on Postgres. Every screen is saved as a screenshot in e2e-artifacts/, and any
// console error or failed page script fails the test.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { ARTIFACTS, BACKEND, BASE_URL, RUN, chooseOption, fillAdminLogin, toastTitled, useBrowser, watchConsole } from './lib.mjs';

const STEP_TIMEOUT_MS = 15_000;

const session = useBrowser();

const shot = (page, name) => page.screenshot({ path: `${ARTIFACTS}/crm-${BACKEND}-${name}.png`, fullPage: true });

test('admin works through the CRM screens', { timeout: 300_000 }, async (t) => {
  const context = await session.browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  // The not-found step asks for an unknown page on purpose; Chromium logs its 404.
  const consoleErrors = watchConsole(page, (msg) => msg.location().url.includes('/no-such-page-') && msg.text().includes('404'));

  try {
    await t.test('the dealer form (no session) lands on /thank-you', async () => {
      await page.goto('/dealers');
      const form = page.getByRole('form', { name: 'Schedule a Conversation' });
      await form.getByLabel('Company name').fill(`Castillo Remodeling ${RUN}`);
      await form.getByLabel('Your name').fill('Erin Castillo');
      await form.getByLabel('Email').fill(`lead.${RUN}@castillo-remodeling.test`);
      await form.getByLabel('State').fill('TX');
      await chooseOption(form.getByLabel('Annual revenue'), '$10-25M');
      await shot(page, '00-dealers');
      await form.getByRole('button', { name: 'Schedule a Conversation' }).click();
      await page.waitForURL((url) => url.pathname === '/thank-you');
      await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
      await shot(page, '00-thank-you');
    });

    await t.test('an unknown address is the not-found page, answered with HTTP 404', async () => {
      const missing = await page.goto(`/no-such-page-${RUN}`);
      assert.equal(missing?.status(), 404);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await page.getByRole('link', { name: 'Go to the start page' }).click();
      await page.getByText('Turn More Prospects Into Paying Customers').waitFor();
      const known = await page.goto('/dealers');
      assert.equal(known?.status(), 200);
    });

    await t.test('the landing page and the admin login', async () => {
      await page.goto('/');
      await page.getByText('Turn More Prospects Into Paying Customers').waitFor();
      await shot(page, '01-landing');
      const form = await fillAdminLogin(page);
      await shot(page, '02-admin-login');
      await form.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/admin');
      await page.getByRole('heading', { level: 1, name: 'Business Intelligence Dashboard' }).waitFor();
      await page.getByTestId('card-prospects').waitFor();
      await shot(page, '03-dashboard');
    });

    await t.test('run a discovery scan to completion and see the companies it found', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discovery', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Prospect Discovery' }).waitFor();
      const search = page.getByRole('form', { name: 'Discovery search' });
      await chooseOption(search.getByLabel('Target region'), 'Texas');
      await chooseOption(search.getByLabel('Revenue range'), '$5-10M');
      // Not the outreach journey's type: its figures count from its own contacts only.
      await chooseOption(search.getByLabel('Company type'), 'Kitchen & Bath');
      await search.getByRole('switch', { name: 'Territory Optimization' }).check();
      await search.getByRole('button', { name: 'Start Discovery' }).click();
      await page.getByRole('progressbar', { name: 'Discovery progress' }).waitFor();
      await shot(page, '04a-discovery-running');
      await toastTitled(page, 'Discovery Complete');
      const results = page.getByRole('region', { name: 'Discovery results' });
      const rows = results.locator('tbody tr[data-company-id]');
      assert.ok((await rows.count()) > 0, 'the scan lists the companies it found');
      // Reloading keeps the finished scan's results (the job is in the address).
      await page.reload();
      await results.locator('tbody tr[data-company-id]').first().waitFor();
      await shot(page, '04b-discovery-results');
    });

    await t.test('the map shows the found companies by city; a point opens its Customer Report', async () => {
      await page.goto('/admin');
      const dallas = page.getByRole('button', { name: /^Dallas, TX: [1-9][\d,]* companies$/ });
      await dallas.waitFor();
      await dallas.click();
      const report = page.getByRole('dialog', { name: 'Customer Report: Dallas, TX' });
      await report.getByText('Total Companies').waitFor();
      await report.getByRole('list', { name: 'Companies in TX' }).getByRole('listitem').first().waitFor();
      await shot(page, '04aa-customer-report');
      await page.keyboard.press('Escape');
    });

    await t.test('create a bulk campaign for three contacts and watch it send', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Email Campaigns', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Email Campaigns' }).waitFor();
      await page.getByRole('button', { name: 'Create Campaign' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Bulk Email Campaign' });
      const campaign = `Dealer intro ${RUN}`;
      await dialog.getByLabel('Campaign name').fill(campaign);
      await dialog.getByRole('tab', { name: 'Message' }).click();
      await chooseOption(dialog.getByLabel('Start from template'), 'Follow-up');
      await dialog.getByLabel('Subject', { exact: true }).fill('Accessible bath products for your customers');
      await dialog.getByRole('tab', { name: 'Target Contacts' }).click();
      await dialog.getByLabel('Minimum score').fill('0');
      await dialog.getByLabel('new lead').uncheck();
      await dialog.getByLabel('email sent').uncheck();
      await dialog.getByRole('checkbox', { name: /^Select all [\d,]+ matching$/ }).uncheck();
      const picks = dialog.getByRole('list', { name: 'Matching contacts' }).getByRole('checkbox');
      await picks.nth(2).waitFor();
      for (const i of [0, 1, 2]) await picks.nth(i).check();
      await dialog.getByTestId('audience-count').filter({ hasText: /^3 of [\d,]+ matching contacts picked\.$/ }).waitFor();
      // The preview is the server's rendering for a real contact.
      await dialog.getByRole('tab', { name: 'Message' }).click();
      await dialog.getByTitle('Rendered email').waitFor();
      await shot(page, '04c-campaign-create');
      await dialog.getByRole('button', { name: 'Create Campaign' }).click();
      await toastTitled(page, 'Campaign Created');
      const card = page.getByRole('listitem', { name: campaign });
      await card.getByRole('button', { name: `Send Now ${campaign}` }).click();
      await toastTitled(page, 'Campaign Sending');
      await card.getByRole('progressbar', { name: `Delivery of ${campaign}` }).waitFor();
      await page.locator(`li[aria-label="${campaign}"][data-status="sent"]`).waitFor({ timeout: 30_000 });
      assert.equal(
        await card.getByRole('progressbar', { name: `Delivery of ${campaign}` }).getAttribute('aria-valuenow'),
        '100',
      );
      await shot(page, '04d-campaign-sent');
    });

    await t.test('create an email sequence with a step', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Email Sequences', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Email Sequences' }).waitFor();
      await page.getByRole('button', { name: 'Create Sequence' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Email Sequence' });
      const sequence = `After the show ${RUN}`;
      await dialog.getByLabel('Sequence Name').fill(sequence);
      await dialog.getByLabel('Description').fill('Short');
      await dialog.getByRole('button', { name: 'Create Sequence' }).click();
      await dialog.getByText('Description must be at least 10 characters').waitFor();
      await dialog.getByLabel('Description').fill('Three touches for dealers met at the trade show');
      await dialog.getByRole('button', { name: 'Create Sequence' }).click();
      await toastTitled(page, 'Sequence Created');
      const builder = page.getByRole('region', { name: `Steps of ${sequence}` });
      await builder.getByRole('button', { name: 'Add Step' }).click();
      const add = page.getByRole('dialog', { name: 'Add Sequence Step' });
      await add.getByLabel('Step Name').fill('First touch');
      await add.getByLabel('Delay Before This Step (minutes)').fill('2880');
      await add.getByText('2 days').waitFor();
      await chooseOption(add.getByLabel('Email template'), 'Business Outreach');
      await add.getByRole('button', { name: 'Add Step' }).click();
      await toastTitled(page, 'Step Added');
      await builder.getByRole('listitem', { name: 'First touch' }).getByText('after 2 days').waitFor();
      // It is stored, and the open sequence is in the address: a reload shows it with its step.
      await page.reload();
      await page.getByRole('region', { name: `Steps of ${sequence}` }).getByRole('listitem', { name: 'First touch' }).waitFor();
      await shot(page, '04e-sequence');
    });

    const first = `Erin${RUN}`;
    const last = 'Castillo';
    const name = `${first} ${last}`;

    await t.test('add a contact: a missing email shows the seed message, then a valid one is added', async () => {
      // The cards: their Verify and Edit buttons are used below (the table is the default view).
      await page.goto('/admin/contacts?view=cards');
      await page.getByRole('heading', { level: 1, name: 'Contact Intelligence' }).waitFor();
      await page.getByRole('button', { name: 'Add Contact' }).click();
      const form = page.getByRole('form', { name: 'Add contact' });
      await form.getByLabel('First name').fill(first);
      await form.getByLabel('Last name').fill(last);
      await form.getByLabel('Title').fill('President');
      await form.getByLabel('Phone').fill('+1 555 010 0199');
      await form.getByRole('button', { name: 'Add Contact' }).click();
      await form.getByRole('alert').filter({ hasText: 'Please fill in first name, last name, and email address.' }).waitFor();
      await shot(page, '04-contact-missing-email');

      await form.getByLabel('Email').fill(`erin.${RUN}@castillo-remodeling.test`);
      await form.getByRole('button', { name: 'Add Contact' }).click();
      await toastTitled(page, 'Contact Added');
      await form.waitFor({ state: 'detached' });
      await page.getByRole('listitem', { name }).waitFor();
      await shot(page, '05-contacts');
    });

    await t.test('verify the contact through the contact_verify job', async () => {
      await page.getByRole('button', { name: `Verify ${name}` }).click();
      // The offline verifier cannot confirm a .test domain's mail server, so either outcome is a real answer.
      await page
        .locator('[role="status"], [role="alert"]')
        .filter({ hasText: /Lead Verified|Verification Failed/ })
        .first()
        .waitFor({ timeout: 45_000 });
      await page.getByRole('button', { name: `Verify ${name}` }).filter({ hasText: /^Verify$/ }).waitFor();
    });

    await t.test('import contacts from CSV through the job, then export them', async () => {
      await page.getByRole('button', { name: 'Import Contacts' }).click();
      const form = page.getByRole('form', { name: 'Import contacts' });
      const csv = `firstName,lastName,email\nIvy,Import${RUN},ivy.${RUN}@import.test\nBad,Row,not-an-email\n`;
      await form.getByLabel('CSV file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await form.getByRole('button', { name: 'Import' }).click();
      await page.getByRole('progressbar', { name: 'Import progress' }).waitFor();
      await toastTitled(page, 'Import Complete');
      await page.getByText('2 rows read: 1 imported, 0 updated, 1 rejected.').waitFor();
      await page.getByRole('list', { name: 'Rejected rows' }).getByText(/^Line 3:/).waitFor();
      await shot(page, '05-contacts-import');
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await page.getByRole('listitem', { name: `Ivy Import${RUN}` }).waitFor();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /^Export \(\d+\)$/ }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'contacts-export.csv');
      await toastTitled(page, 'Export Complete');
    });

    await t.test('put the contact on the lead pipeline and move it one stage', async () => {
      await page.getByRole('button', { name: `Edit ${name}` }).click();
      const form = page.getByRole('form', { name: 'Edit contact' });
      await chooseOption(form.getByLabel('Status'), 'new lead');
      await form.getByRole('button', { name: 'Save Contact' }).click();
      await toastTitled(page, 'Contact Updated');

      await page.goto('/admin/leads');
      const newLeads = page.getByRole('region', { name: 'New Leads' });
      await newLeads.getByRole('listitem', { name }).waitFor();
      await page.getByRole('button', { name: `Move ${name} to Email Sent` }).click();
      await toastTitled(page, 'Lead Moved');
      await page.getByRole('region', { name: 'Email Sent' }).getByRole('listitem', { name }).waitFor();
      assert.equal(await newLeads.getByRole('listitem', { name }).count(), 0);
      await shot(page, '06-leads');
    });

    await t.test('the customers and companies screens load', async () => {
      await page.goto('/admin/customers');
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
      await page.getByText('Total Customers').waitFor();
      await shot(page, '07-customers');
      await page.goto('/admin/companies');
      await page.getByRole('heading', { level: 1, name: 'Company Prospects' }).waitFor();
      await page.getByText('Total Companies').waitFor();
      await shot(page, '08-companies');
    });

    const dealTitle = `Castillo showroom ${RUN}`;
    await t.test('create a deal and move it to the next stage', async () => {
      await page.goto('/admin/pipeline');
      await page.getByRole('heading', { level: 1, name: 'Sales Pipeline' }).waitFor();
      await page.getByRole('button', { name: 'Add Deal' }).click();
      const form = page.getByRole('form', { name: 'Add new deal' });
      await form.getByRole('button', { name: 'Create Deal' }).click();
      await form.getByText('Deal title is required').waitFor();
      await form.getByText('Deal value is required').waitFor();
      await form.getByLabel('Deal title').fill(dealTitle);
      await form.getByLabel('Value (USD)').fill('52000');
      // The contact is found by typing (the whole table is searched), chosen with the keyboard.
      const contact = form.getByRole('combobox', { name: 'Contact' });
      await contact.fill('Erin Castillo');
      await form.getByRole('option', { name: /^Erin Castillo/ }).waitFor();
      await contact.press('Enter');
      assert.equal(await contact.inputValue(), 'Erin Castillo');
      await form.getByRole('button', { name: 'Create Deal' }).click();
      await toastTitled(page, 'Deal Created');
      const qualification = page.getByRole('region', { name: 'Qualification' });
      await qualification.getByRole('listitem', { name: dealTitle }).waitFor();
      // The card opens the deal's page: its contact, and its creation on the timeline.
      await qualification.getByRole('listitem', { name: dealTitle }).getByRole('link', { name: dealTitle }).click();
      await page.getByRole('heading', { level: 1, name: dealTitle }).waitFor();
      await page.getByRole('link', { name: 'Erin Castillo' }).waitFor();
      await page.getByRole('list', { name: 'Timeline' }).getByText('Deal created').waitFor();
      await shot(page, '09a-deal-record');
      await page.goBack();

      await page.getByRole('button', { name: `Actions for ${dealTitle}` }).click();
      await page.getByRole('menuitem', { name: 'Move to next stage' }).click();
      await toastTitled(page, 'Deal Moved');
      await page.getByRole('region', { name: 'Proposal' }).getByRole('listitem', { name: dealTitle }).waitFor();
      await shot(page, '09-pipeline');
    });

    await t.test('the boards page each column and agree with the pipeline figures', async () => {
      // The open columns' counts (every deal of the stage, not the cards shown) are the Active Deals tile.
      const counts = {};
      for (const stage of ['qualification', 'proposal', 'negotiation', 'decision', 'closed_won']) {
        const line = await page.locator(`section[data-stage="${stage}"] > p`).first().textContent();
        counts[stage] = Number(/· ([\d,]+) deals?/.exec(line)[1].replaceAll(',', ''));
      }
      const open = counts.qualification + counts.proposal + counts.negotiation + counts.decision;
      const tile = page.locator('div', { has: page.getByText('Active Deals', { exact: true }) }).last();
      await tile.getByText(String(open), { exact: true }).waitFor();

      await page.goto('/admin/leads');
      const newLeads = page.getByRole('region', { name: 'New Leads' });
      const list = newLeads.getByRole('list', { name: 'Leads in New Leads' });
      await list.getByRole('listitem').first().waitFor();
      const total = Number((await newLeads.locator('dd').first().textContent()).replaceAll(',', ''));
      assert.ok(total > 25, `the demo data has more new leads than a page (${total})`);
      // The column renders the cards in view (virtualised); scrolled to its end, the last is the 25th.
      const lastShown = async (place) => {
        for (let i = 0; i < 50 && (await list.locator(`li[aria-posinset="${place}"]`).count()) === 0; i++) {
          await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          await page.waitForTimeout(100);
        }
        await list.locator(`li[aria-posinset="${place}"]`).waitFor();
        assert.equal(await list.locator(`li[aria-posinset="${place + 1}"]`).count(), 0);
      };
      await lastShown(25);
      assert.ok((await list.getByRole('listitem').count()) < 25, 'only the cards in view are rendered');
      await newLeads.getByText(`Showing 25 of ${total}`).waitFor();
      await newLeads.getByRole('button', { name: 'Show more New Leads' }).click();
      await lastShown(Math.min(50, total));
      await shot(page, '09b-leads-more');
    });

    const meetingTitle = `Showroom walkthrough ${RUN}`;
    await t.test('schedule a meeting', async () => {
      await page.goto('/admin/meetings');
      await page.getByRole('heading', { level: 1, name: 'Meetings' }).waitFor();
      await page.getByRole('button', { name: 'Schedule Meeting' }).first().click();
      const form = page.getByRole('form', { name: 'Schedule meeting' });
      await form.getByRole('button', { name: 'Schedule Meeting' }).click();
      await form.getByText('Title is required').waitFor();
      await form.getByText('Date and time are required').waitFor();
      await form.getByLabel('Title').fill(meetingTitle);
      // The date picker takes a typed date; its time is a field of its own.
      await form.getByLabel('Date and time', { exact: true }).fill('2030-03-01');
      await form.getByLabel('Time', { exact: true }).fill('15:00');
      await chooseOption(form.getByLabel('Meeting type'), 'demo');
      await form.getByRole('button', { name: 'Schedule Meeting' }).click();
      await toastTitled(page, 'Meeting Scheduled');
      const card = page.getByRole('listitem', { name: meetingTitle });
      await card.waitFor();
      await card.getByText('SCHEDULED').waitFor();
      await shot(page, '10-meetings');
    });

    await t.test('the campaigns, email configuration and automation screens load with real figures', async () => {
      await page.goto('/admin/campaigns');
      await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
      await page.getByText('Emails Sent (30 days)').waitFor();
      await shot(page, '13-campaigns');
      await page.goto('/admin/email-config');
      await page.getByRole('heading', { level: 1, name: 'Email Configuration' }).waitFor();
      // The e2e server sends through the loopback SMTP sink, with a postal address: ready to send.
      await page.getByText(/^SMTP relay /).waitFor();
      await page.getByRole('heading', { name: 'Sending readiness' }).waitFor();
      await shot(page, '14-email-config');
    });

    await t.test('webhooks need the token shown on Email Configuration; a forged suppression is lifted', async () => {
      // Calls from a stranger's machine: no cookie, only the URL.
      const postEvents = (pathAndQuery, email) =>
        fetch(`${BASE_URL}${pathAndQuery}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify([{ email, event: 'spamreport', timestamp: Math.floor(Date.now() / 1000) }]),
        });
      const urlField = page.getByLabel('Webhook URL', { exact: true });
      const first = new URL(await urlField.inputValue());
      assert.ok(first.searchParams.get('token'), `the URL carries the install's token: ${first}`);
      const victim = `forged.${RUN}@castillo-remodeling.test`;
      assert.equal((await postEvents(first.pathname, victim)).status, 401, 'no token: refused');

      await page.getByRole('button', { name: 'Rotate Token' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate token' }).click();
      await toastTitled(page, 'Webhook Token Rotated');
      await page.waitForFunction(
        ([label, old]) => {
          const input = [...globalThis.document.querySelectorAll('input')].find((i) => i.id === label);
          return input && input.value !== old;
        },
        ['webhook-url', first.toString()],
      );
      const second = new URL(await urlField.inputValue());
      assert.notEqual(second.searchParams.get('token'), first.searchParams.get('token'));
      assert.equal((await postEvents(`${first.pathname}${first.search}`, victim)).status, 401, 'the old token is dead');
      assert.equal((await postEvents(`${second.pathname}${second.search}`, victim)).status, 200, 'the new token works');

      // The spam report (a mistaken or forged one) shows on the list, and an admin lifts it.
      await page.reload();
      await page.getByLabel('Search suppressed addresses').fill(victim);
      const list = page.getByRole('list', { name: 'Suppressed addresses' });
      await list.getByText(victim).waitFor();
      await shot(page, '14-suppressed');
      await page.getByRole('button', { name: `Lift suppression for ${victim}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Lift suppression' }).click();
      await toastTitled(page, 'Suppression Lifted');
      await page.getByText('No suppressed address matches').waitFor();
    });

    await t.test('the automation screen sends reminders', async () => {
      await page.goto('/admin/business-development');
      await page.getByRole('heading', { level: 1, name: 'Business Development Automation' }).waitFor();
      await page.getByRole('button', { name: 'Send Reminders' }).click();
      // A job now: its end is reported with what was sent and what still waits.
      await toastTitled(page, 'Reminders Done');
      await shot(page, '15-automation');
    });

    await t.test('invoicing: catalog upload, an invoice with its PDF, history and a status change', async () => {
      await page.goto('/admin/invoicing');
      await page.getByRole('heading', { level: 1, name: 'Invoicing' }).waitFor();
      await page.getByLabel('Upload catalog').setInputFiles({
        name: 'catalog.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('Product Name,Price,SKU\nShower Seat,"$249.99",SS-1\nGrab Bar,39.50,GB-1\nWalk-in Tub,"4,999.00",WT-1\nHand Rail,20,HR-1\n'),
      });
      await toastTitled(page, 'Catalog Uploaded');
      const products = page.getByRole('list', { name: 'Products' });
      await products.getByRole('button', { name: 'Add Walk-in Tub' }).click();
      await products.getByRole('button', { name: 'Add Grab Bar' }).click();
      const form = page.getByRole('form', { name: 'Invoice' });
      const number = `INV-E2E-${RUN}`;
      await form.getByLabel('Invoice number').fill(number);
      await form.getByLabel('Customer name').fill(`Sunrise Bath ${RUN}`);
      await form.getByLabel('Customer email').fill(`ap.${RUN}@sunrise-bath.test`);
      await form.getByRole('listitem', { name: 'Line 2' }).getByLabel('Quantity').fill('4');
      await form.getByLabel('Discount ($)').fill('100');
      // 4,999.00 + 4 × 39.50 = 5,157.00; − 100 = 5,057.00; + 8.5 % = 429.85 → 5,486.85.
      await form.getByLabel('Invoice totals').getByText('$5,486.85').waitFor();
      await form.getByRole('button', { name: 'Save Draft' }).click();
      await toastTitled(page, 'Invoice Saved');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        form.getByRole('button', { name: 'Download PDF' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), `invoice-${number}.pdf`);
      const pdf = await readFile(await download.path());
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      await shot(page, '17-invoicing');

      await page.goto('/admin/invoice-history');
      const draft = page.getByRole('region', { name: 'Draft' });
      await draft.getByRole('listitem', { name: number }).getByText('$5,486.85').waitFor();
      await chooseOption(page.getByLabel(`Status of ${number}`), 'Sent');
      await page.getByRole('region', { name: 'Sent' }).getByRole('listitem', { name: number }).waitFor();
      await shot(page, '18-invoice-history');
      // The same invoices as a dense table over all of them, ordered by the server from a header.
      await page.getByRole('button', { name: 'Table', exact: true }).click();
      const table = page.getByRole('table', { name: 'Invoices' });
      await table.getByRole('rowheader', { name: number }).waitFor();
      await table.getByRole('button', { name: /Total/ }).click();
      await page.waitForURL((url) => url.searchParams.get('sort') === 'amount');
      // The router renders the new address in a transition: wait for the header, not only the URL.
      await table.locator('th[aria-sort="descending"]', { hasText: 'Total' }).waitFor();
      await table.getByRole('row').filter({ hasText: number }).getByText('Sent').waitFor();
    });

    await t.test('voice agents in demo mode, AI tools on templates, and an invoice emailed by its job', async () => {
      await page.goto('/admin/voice-agents');
      await page.getByRole('heading', { level: 1, name: 'Voice Agents' }).waitFor();
      // The e2e server has no VOICE_API_URL: demo mode, and the call is recorded as simulated.
      await page.getByText('Demo mode', { exact: true }).waitFor();
      const call = page.getByRole('form', { name: 'Initiate call' });
      await call.getByRole('button', { name: 'Start Call' }).click();
      await toastTitled(page, 'Missing Information');
      // The contact is found by typing (the form never loads every contact); the first agent is taken.
      await call.getByLabel('Contact').fill(first);
      await call.getByRole('option', { name: `${name} · +1 555 010 0199` }).click();
      await call.getByLabel('Agent').click();
      await page.getByRole('listbox').getByRole('option').first().click();
      await call.getByLabel('Call purpose').fill('Qualify interest in the dealer program');
      await call.getByRole('button', { name: 'Start Call' }).click();
      await toastTitled(page, 'Call Started');
      const detail = page.getByRole('article', { name: `Call with ${name}` });
      await detail.getByText('Simulated — no call placed').waitFor();
      await detail.getByText('COMPLETED').waitFor({ timeout: 30_000 });
      await page.getByRole('list', { name: 'Recent calls' }).getByText(name).first().waitFor();
      await shot(page, '19-voice-agents');

      await page.goto('/admin/ai-management');
      await page.getByRole('heading', { level: 1, name: 'AI Orchestration Center' }).waitFor();
      const sentiment = page.getByRole('form', { name: 'Market sentiment' });
      await sentiment.getByLabel('Company name').fill(`Castillo Remodeling ${RUN}`);
      await sentiment.getByLabel('Industry').fill('bath remodeling');
      await sentiment.getByRole('button', { name: 'Analyze Sentiment' }).click();
      const result = page.getByRole('region', { name: 'Sentiment result' });
      await result.getByText('Template fallback', { exact: true }).waitFor({ timeout: 30_000 });
      await result.getByText(/\/100$/).waitFor();
      await page.getByRole('tab', { name: 'Agents' }).click();
      // The sentiment run just made counts among the content agent's tasks.
      await page.getByRole('list', { name: 'Agents' }).getByRole('listitem', { name: 'Content Agent' }).getByText('1 / 1 tasks').waitFor();
      await shot(page, '20-ai-management');

      await page.goto('/admin/ai-features');
      await page.getByRole('heading', { level: 1, name: 'AI Features' }).waitFor();
      await page.getByRole('tab', { name: 'Content Gen' }).click();
      const content = page.getByRole('form', { name: 'Generate content' });
      await content.getByLabel('Context').fill('A follow-up to a remodeler we met at the Dallas trade show');
      await content.getByRole('button', { name: 'Generate' }).click();
      await toastTitled(page, 'Content Generated!');
      const [text] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
      assert.equal(text.suggestedFilename(), 'generated_email.txt');
      assert.ok((await readFile(await text.path(), 'utf8')).length > 40, 'the downloaded content has text');
      await shot(page, '21-ai-features');

      // Send Invoice: saved, then emailed with its PDF by the invoice_send job (to the outbox here).
      await page.goto('/admin/invoicing');
      const invoice = page.getByRole('form', { name: 'Invoice' });
      await invoice.getByLabel('Customer name').fill(`Blue Ridge ${RUN}`);
      await invoice.getByLabel('Customer email').fill(`ap.${RUN}@blue-ridge.test`);
      const line = invoice.getByRole('listitem', { name: 'Line 1' });
      await line.getByLabel('Description').fill('Grab bar');
      await line.getByLabel('Unit price').fill('39.50');
      await invoice.getByRole('button', { name: 'Send Invoice' }).click();
      await toastTitled(page, 'Invoice Sent');
      await page.goto('/admin/invoice-history');
      await page.getByRole('region', { name: 'Sent' }).getByText(`Blue Ridge ${RUN}`).waitFor();
    });

    await t.test('the ops screen and a phone-sized dashboard', async () => {
      await page.goto('/admin/ops');
      await page.getByRole('heading', { level: 1, name: 'Ops' }).waitFor();
      await shot(page, '11-jobs');
      await page.setViewportSize({ width: 360, height: 800 });
      await page.goto('/admin');
      await page.getByRole('heading', { level: 1, name: 'Business Intelligence Dashboard' }).waitFor();
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Mobile' }).waitFor();
      await shot(page, '12-dashboard-360px');
      // Nothing may overflow sideways at 360 px.
      const overflow = await page.evaluate(
        () => globalThis.document.documentElement.scrollWidth - globalThis.innerWidth,
      );
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the 360px viewport`);
      // The other screens too (wide tables scroll inside their own box).
      for (const [path, heading] of [
        ['/admin/discovery', 'Prospect Discovery'],
        ['/admin/email-campaigns', 'Email Campaigns'],
        ['/admin/email-sequences', 'Email Sequences'],
        ['/admin/campaigns', 'Campaigns'],
        ['/admin/email-config', 'Email Configuration'],
        ['/admin/business-development', 'Business Development Automation'],
        ['/admin/ops', 'Ops'],
        ['/admin/invoicing', 'Invoicing'],
        ['/admin/invoice-history', 'Invoice History'],
        ['/admin/voice-agents', 'Voice Agents'],
        ['/admin/ai-management', 'AI Orchestration Center'],
        ['/admin/ai-features', 'AI Features'],
      ]) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        const wider = await page.evaluate(() => globalThis.document.documentElement.scrollWidth - globalThis.innerWidth);
        assert.ok(wider <= 0, `${path} is ${wider}px wider than the 360px viewport`);
      }
      await shot(page, '16-ops-360px');
    });

    assert.deepEqual(consoleErrors, [], 'no console errors');
  } catch (error) {
    await shot(page, 'crm-failure').catch(() => {});
    throw error;
  } finally {
    await context.close();
  }
});
