import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { captureDownloads } from '@/testing/downloads';
import { db } from '@/testing/mocks/db';
import { makeInvoice } from '@/testing/mocks/invoice-handlers';
import { recordRequests, server } from '@/testing/mocks/server';
import { chooseOption } from '@/testing/select';
import { renderApp } from '@/testing/test-utils';

const fillLine = async (user: ReturnType<typeof renderApp>['user'], n: number, description: string, qty: string, price: string) => {
  const line = screen.getByRole('listitem', { name: `Line ${n}` });
  await user.clear(within(line).getByLabelText('Description'));
  await user.type(within(line).getByLabelText('Description'), description);
  await user.clear(within(line).getByLabelText('Quantity'));
  await user.type(within(line).getByLabelText('Quantity'), qty);
  await user.clear(within(line).getByLabelText('Unit price'));
  await user.type(within(line).getByLabelText('Unit price'), price);
};

describe('Invoicing', () => {
  it("checks the customer fields with the seed's messages and writes nothing", async () => {
    const requests = recordRequests();
    const { user } = renderApp('/admin/invoicing', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Invoice' });
    await user.type(within(form).getByLabelText('Customer email'), 'not-an-email');
    await fillLine(user, 1, 'Grab bar', '1', '10');
    await user.click(within(form).getByRole('button', { name: 'Save Draft' }));
    expect(await within(form).findByText('Customer name is required')).toBeInTheDocument();
    expect(within(form).getByText('Valid email required')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('totals in cents with tax after the discount, and more than 3 line items', async () => {
    const { user } = renderApp('/invoicing', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Invoice' });
    const send = within(form).getByRole('button', { name: 'Send Invoice' });
    const charge = within(form).getByRole('button', { name: 'Charge' });
    expect(send).toBeDisabled();
    expect(charge).toBeDisabled();
    await fillLine(user, 1, 'Grab bar', '3', '19.99');
    for (let i = 2; i <= 4; i++) {
      await user.click(within(form).getByRole('button', { name: 'Add Line Item' }));
      await fillLine(user, i, `Item ${i}`, '1', i === 2 ? '100' : '0');
    }
    expect(screen.getAllByRole('listitem', { name: /^Line \d$/ })).toHaveLength(4);
    await user.type(within(form).getByLabelText('Discount ($)'), '10');
    const totals = within(form).getByLabelText('Invoice totals');
    expect(totals).toHaveTextContent('Subtotal$159.97');
    expect(totals).toHaveTextContent('Tax$12.75');
    expect(totals).toHaveTextContent('Total$162.72');
    expect(send).toBeEnabled();
    // The emptied tax rate goes back to 8.5.
    const tax = within(form).getByLabelText('Tax rate (%)');
    await user.clear(tax);
    await user.tab();
    expect(tax).toHaveValue(8.5);
  });

  it('saves, charges in demo mode and downloads the PDF of the same invoice', async () => {
    const downloads = captureDownloads();
    const { user } = renderApp('/invoicing', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Invoice' });
    await user.clear(within(form).getByLabelText('Invoice number'));
    await user.type(within(form).getByLabelText('Invoice number'), 'INV-77');
    await user.type(within(form).getByLabelText('Customer name'), 'Blue Ridge Remodeling');
    await fillLine(user, 1, 'Walk-in tub', '1', '100');
    await user.click(within(form).getByRole('button', { name: 'Charge' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Demo Payment');
    expect(db.invoices).toHaveLength(1);
    expect(db.payments[0]).toMatchObject({ amount: 108.5, currency: 'usd', metadata: { invoiceNumber: 'INV-77', customerName: 'Blue Ridge Remodeling' } });
    await user.click(within(form).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(downloads).toEqual(['invoice-INV-77.pdf']));
    expect(db.invoices).toHaveLength(1);
  });

  it('sends: the invoice is saved and emailed by a job, and the form starts over', async () => {
    const { user } = renderApp('/invoicing', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Invoice' });
    await user.type(within(form).getByLabelText('Customer name'), 'Sunrise Bath');
    await fillLine(user, 1, 'Grab bar', '2', '25');
    // No address: refused before anything is saved.
    await user.click(within(form).getByRole('button', { name: 'Send Invoice' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This invoice has no customer email');
    expect(db.invoices).toHaveLength(0);

    // The number is left blank: the field shows the one it will get, and the save is given it.
    const year = new Date().getFullYear();
    await waitFor(() => expect(within(form).getByLabelText('Invoice number')).toHaveAttribute('placeholder', `INV-${year}-0001`));
    expect(within(form).getByLabelText('Invoice number')).toHaveAccessibleDescription(`Left blank, it gets the next number (INV-${year}-0001).`);
    await user.type(within(form).getByLabelText('Customer email'), 'buyer@sunrise.test');
    await user.click(within(form).getByRole('button', { name: 'Send Invoice' }));
    await waitFor(() => expect(document.body.textContent).toContain(`INV-${year}-0001 is being emailed to buyer@sunrise.test`));
    await waitFor(() => expect(within(form).getByLabelText('Invoice number')).toHaveAttribute('placeholder', `INV-${year}-0002`));
    expect(db.invoiceSends).toEqual([db.invoices[0]?.id]);
    expect(within(form).getByLabelText('Customer name')).toHaveValue('');
    // Another send waits for this one's job.
    expect(within(form).getByRole('button', { name: 'Send Invoice' })).toBeDisabled();
    const job = db.jobs.find((j) => j.kind === 'invoice_send');
    if (job) Object.assign(job, { status: 'succeeded', finishedAt: new Date().toISOString() });
    await waitFor(() => expect(document.body.textContent).toContain(`${db.invoices[0]?.invoiceNumber ?? ''} was emailed to buyer@sunrise.test`));
  });

  it('says why emailing failed when the job fails', async () => {
    const { user } = renderApp('/invoicing', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Invoice' });
    await user.type(within(form).getByLabelText('Customer name'), 'Sunrise Bath');
    await user.type(within(form).getByLabelText('Customer email'), 'buyer@sunrise.test');
    await fillLine(user, 1, 'Grab bar', '2', '25');
    await user.click(within(form).getByRole('button', { name: 'Send Invoice' }));
    await waitFor(() => expect(db.jobs.some((j) => j.kind === 'invoice_send')).toBe(true));
    const job = db.jobs.find((j) => j.kind === 'invoice_send');
    if (job) Object.assign(job, { status: 'failed', error: 'SMTP server refused the message', finishedAt: new Date().toISOString() });
    await waitFor(() => expect(document.body.textContent).toContain('SMTP server refused the message'));
  });

  it('uploads a catalog and adds its products as line items; bad files get their notices', async () => {
    const { user } = renderApp('/invoicing', { signedIn: true });
    const input = await screen.findByLabelText('Upload catalog');
    await user.upload(input, new File(['name,price\nShower Seat,249.99\nGrab Bar,39.50\nTub,4999\nRail,20\n'], 'c.csv', { type: 'text/csv' }));
    await waitFor(() => expect(document.body.textContent).toContain('Catalog Uploaded4 products loaded'));
    const products = await screen.findByRole('list', { name: 'Products' });
    expect(within(products).getAllByRole('listitem')).toHaveLength(4);
    await user.click(within(products).getByRole('button', { name: 'Add Shower Seat' }));
    const line = screen.getByRole('listitem', { name: 'Line 1' });
    expect(within(line).getByLabelText('Description')).toHaveValue('Shower Seat');
    expect(within(line).getByLabelText('Unit price')).toHaveValue(249.99);

    server.use(
      http.post('/api/catalog/upload', () =>
        HttpResponse.json({ message: "Invalid CSV Format: CSV must contain 'name' and 'price' columns" }, { status: 422 }),
      ),
    );
    await user.upload(input, new File(['title,cost\nx,1\n'], 'bad.csv', { type: 'text/csv' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent("Invalid CSV FormatCSV must contain 'name' and 'price' columns"));
    server.use(
      http.post('/api/catalog/upload', () =>
        HttpResponse.json({ message: 'PDF catalogs are not supported: export the price list as CSV or Excel.' }, { status: 415 }),
      ),
    );
    await user.upload(input, new File(['%PDF-1.7'], 'c.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('PDF Catalogs Not Supported'));
  }, 15_000);
});

describe('Invoice History', () => {
  it('shows five tiles and the four-status board, filters by text, and changes a status', async () => {
    makeInvoice({ invoiceNumber: 'INV-1', customerName: 'Sunrise Bath' });
    makeInvoice({ invoiceNumber: 'INV-2', customerName: 'Blue Ridge', status: 'paid' });
    makeInvoice({ invoiceNumber: 'INV-3', customerName: 'Coastal Homes', status: 'overdue' });
    const { user } = renderApp('/admin/invoice-history', { signedIn: true });
    const draft = await screen.findByRole('region', { name: 'Draft' });
    expect(within(draft).getByRole('listitem', { name: 'INV-1' })).toHaveTextContent('$108.50');
    const tile = (label: string) => screen.getByText(label).parentElement;
    await waitFor(() => expect(tile('Total Invoices')).toHaveTextContent('3'));
    expect(tile('Total Amount')).toHaveTextContent('$325.50');
    expect(tile('Outstanding')).toHaveTextContent('$108.50');
    const paid = screen.getByRole('region', { name: 'Paid' });
    expect(within(paid).queryByRole('combobox')).toBeNull();

    await chooseOption(user, screen.getByLabelText('Status of INV-1'), 'Sent');
    const sent = screen.getByRole('region', { name: 'Sent' });
    expect(await within(sent).findByRole('listitem', { name: 'INV-1' })).toBeInTheDocument();
    // The tiles are read again: a sent invoice is outstanding.
    await waitFor(() => expect(tile('Outstanding')).toHaveTextContent('$217.00'));
    expect(tile('Outstanding')).toHaveTextContent('2 invoices');

    await user.type(screen.getByLabelText('Search invoices'), 'coastal');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'INV-1' })).toBeNull());
    expect(screen.getByRole('listitem', { name: 'INV-3' })).toBeInTheDocument();
  }, 15_000);

  it('counts every matching invoice in the tiles and says when the board holds only the newest ones', async () => {
    makeInvoice({ invoiceNumber: 'INV-1', customerName: 'Sunrise Bath' });
    makeInvoice({ invoiceNumber: 'INV-2', customerName: 'Blue Ridge', status: 'paid' });
    makeInvoice({ invoiceNumber: 'INV-3', customerName: 'Coastal Homes', status: 'overdue' });
    // The server's page holds two of them (of its page maximum) and says how many match.
    server.use(
      http.get('/api/invoices', () => HttpResponse.json(db.invoices.slice(0, 2), { headers: { 'X-Total-Count': '1500' } })),
    );
    renderApp('/admin/invoice-history', { signedIn: true });
    expect(await screen.findByText(/Showing the newest 2 of 1,500 invoices/)).toBeInTheDocument();
    const amount = screen.getByText('Total Amount').parentElement as HTMLElement;
    await waitFor(() => expect(amount).toHaveTextContent('$325.50'));
    const tiles = amount.parentElement as HTMLElement;
    expect(within(tiles).getByText('Overdue').parentElement).toHaveTextContent('1$108.50');
  });

  it('shows the invoices as a table: sorted by column, ticked ones set to a status at once (paid stays paid) or exported', async () => {
    const downloads = captureDownloads();
    makeInvoice({ invoiceNumber: 'INV-2026-0002', customerName: 'Sunrise Bath', date: '2026-11-20', dueDate: '2026-12-20' });
    makeInvoice({ invoiceNumber: 'INV-2026-0001', customerName: 'Blue Ridge', status: 'paid', date: '2026-11-02', dueDate: '2026-12-02' });
    makeInvoice({ invoiceNumber: 'INV-2026-0003', customerName: 'Coastal Homes', status: 'overdue', date: '2026-11-25', dueDate: '2026-12-25' });
    const { user, router } = renderApp('/admin/invoice-history', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Table' }));
    expect(router.state.location.search).toBe('?view=table');
    const table = within(screen.getByRole('region', { name: 'Invoices table' })).getByRole('table');
    const numbers = () => within(table).getAllByRole('rowheader').map((h) => h.textContent);
    // The server's order (newest made first); then by customer, A to Z.
    expect(numbers()).toEqual(['INV-2026-0003', 'INV-2026-0001', 'INV-2026-0002']);
    const first = within(table).getAllByRole('row')[1];
    expect(first).toHaveTextContent('Coastal Homes');
    expect(first?.textContent).toMatch(/Nov 25, 2026/);
    await user.click(within(table).getByRole('button', { name: /Customer/ }));
    expect(numbers()).toEqual(['INV-2026-0001', 'INV-2026-0003', 'INV-2026-0002']);

    // All three ticked and set to Sent: the paid one is left as it was.
    await user.click(within(table).getByRole('checkbox', { name: 'Select all invoices on this page' }));
    const bulk = screen.getByRole('group', { name: 'Bulk actions' });
    expect(bulk).toHaveTextContent('3 invoices selected');
    await user.click(within(bulk).getByRole('button', { name: 'Export CSV' }));
    expect(downloads).toEqual([expect.stringMatching(/^invoices-\d{4}-\d{2}-\d{2}\.csv$/)]);
    await chooseOption(user, within(bulk).getByRole('combobox', { name: 'Set status' }), 'Sent');
    await user.click(within(bulk).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Invoices Updated2 set to Sent; 1 left as it was (paid, or already Sent).');
    expect(db.invoices.map((i) => [i.invoiceNumber, i.status]).sort()).toEqual([
      ['INV-2026-0001', 'paid'],
      ['INV-2026-0002', 'sent'],
      ['INV-2026-0003', 'sent'],
    ]);
    expect(screen.queryByRole('group', { name: 'Bulk actions' })).toBeNull();
  });

  it('pages through every invoice in the table, sorted by the server, keeping ticks across pages', async () => {
    for (let n = 1; n <= 60; n++) {
      makeInvoice({
        invoiceNumber: `INV-2026-${String(n).padStart(4, '0')}`,
        customerName: `Customer ${String(n).padStart(2, '0')}`,
        lineItems: [{ productId: null, description: 'Rail', quantity: '1', unitPrice: String(n) }],
        taxRate: '0',
      });
    }
    const requests = recordRequests();
    const { user, router } = renderApp('/admin/invoice-history?view=table', { signedIn: true });
    const table = within(await screen.findByRole('region', { name: 'Invoices table' })).getByRole('table');
    const numbers = () => within(table).getAllByRole('rowheader').map((h) => h.textContent);
    await waitFor(() => expect(numbers()).toHaveLength(50));
    expect(screen.getByTestId('page-count')).toHaveTextContent('60');
    expect(numbers()[0]).toBe('INV-2026-0060');
    // No "newest 1,000" notice under the table: it reaches every invoice.
    expect(screen.queryByText(/Showing the newest/)).toBeNull();
    expect(screen.getByText('Showing 1–50 of 60')).toBeInTheDocument();

    // Total, highest first, is asked of the server.
    await user.click(within(table).getByRole('button', { name: /Total/ }));
    await waitFor(() => expect(numbers()[0]).toBe('INV-2026-0060'));
    expect(within(table).getByRole('columnheader', { name: /Total/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(table).getByRole('button', { name: /Total/ }));
    await waitFor(() => expect(numbers()[0]).toBe('INV-2026-0001'));
    const asked = requests.filter((r) => r.method === 'GET' && r.path === '/api/invoices').map((r) => new URLSearchParams(r.search));
    expect(asked.at(-1)?.get('sort')).toBe('amount');
    expect(asked.at(-1)?.get('dir')).toBe('asc');
    expect(asked.at(-1)?.get('limit')).toBe('50');

    await user.click(within(table).getByRole('checkbox', { name: 'Select INV-2026-0001' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(numbers()).toEqual(Array.from({ length: 10 }, (_, i) => `INV-2026-00${51 + i}`)));
    expect(router.state.location.search).toContain('offset=50');
    await user.click(within(table).getByRole('checkbox', { name: 'Select INV-2026-0060' }));
    const bulk = screen.getByRole('group', { name: 'Bulk actions' });
    expect(bulk).toHaveTextContent('2 invoices selected');
    await chooseOption(user, within(bulk).getByRole('combobox', { name: 'Set status' }), 'Overdue');
    await user.click(within(bulk).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Invoices Updated2 set to Overdue.');
    expect(db.invoices.filter((i) => i.status === 'overdue').map((i) => i.invoiceNumber).sort()).toEqual(['INV-2026-0001', 'INV-2026-0060']);
  }, 20_000);

  it('saves the filters, the table, its columns and order as a named view, and brings them back', async () => {
    makeInvoice({ invoiceNumber: 'INV-2026-0001', customerName: 'Sunrise Bath', date: '2026-11-02' });
    makeInvoice({ invoiceNumber: 'INV-2026-0002', customerName: 'Coastal Homes', date: '2026-11-20' });
    const { user, router } = renderApp('/admin/invoice-history', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Table' }));
    const table = within(screen.getByRole('region', { name: 'Invoices table' })).getByRole('table');
    await user.click(within(table).getByRole('button', { name: /Customer/ }));
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: /Email/ }));
    await user.keyboard('{Escape}');
    await user.type(screen.getByLabelText('Search invoices'), 'sunrise');
    await waitFor(() => expect(within(table).queryByText('INV-2026-0002')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Views' }));
    let dialog = await screen.findByRole('dialog', { name: 'Saved views' });
    expect(within(dialog).getByText('No saved views yet.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(within(dialog).getByLabelText('Save the current settings as')).toHaveAccessibleDescription('Name the view');
    await user.type(within(dialog).getByLabelText('Save the current settings as'), 'Sunrise by customer');
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByRole('listitem')).toHaveTextContent('Sunrise by customer');
    expect(db.views[0]).toMatchObject({
      screen: 'invoices',
      name: 'Sunrise by customer',
      state: { filters: { search: 'sunrise' }, view: 'table', hidden: ['email'], sort: { key: 'customer', dir: 'asc' } },
    });
    await user.keyboard('{Escape}');

    // Back to the defaults, then the view restores everything.
    await user.click(screen.getByRole('button', { name: 'Board' }));
    await user.clear(screen.getByLabelText('Search invoices'));
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'INV-2026-0002' })).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Views' }));
    dialog = await screen.findByRole('dialog', { name: 'Saved views' });
    await user.click(await within(dialog).findByRole('button', { name: 'Apply Sunrise by customer' }));
    expect(router.state.location.search).toBe('?search=sunrise&sort=customer&dir=asc&view=table');
    expect(screen.getByLabelText('Search invoices')).toHaveValue('sunrise');
    const restored = within(await screen.findByRole('region', { name: 'Invoices table' })).getByRole('table');
    await waitFor(() => expect(within(restored).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['INV-2026-0001']));
    expect(within(restored).getByRole('columnheader', { name: /Customer/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(restored).queryByRole('columnheader', { name: /Email/ })).toBeNull();

    // Deleted, it is gone from the list.
    await user.click(screen.getByRole('button', { name: 'Views' }));
    dialog = await screen.findByRole('dialog', { name: 'Saved views' });
    await user.click(await within(dialog).findByRole('button', { name: 'Delete Sunrise by customer' }));
    expect(await within(dialog).findByText('No saved views yet.')).toBeInTheDocument();
    expect(db.views).toEqual([]);
  }, 20_000);

  it('says when there are no invoices', async () => {
    renderApp('/invoice-history', { signedIn: true });
    expect(await screen.findByText('No invoices found')).toBeInTheDocument();
  });
});
