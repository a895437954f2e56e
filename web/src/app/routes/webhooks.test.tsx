import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { seriousViolations } from '@/testing/axe';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { TEST_SECRET, makeDelivery, makeEndpoint } from '@/testing/mocks/webhooks-handlers';
import { renderApp } from '@/testing/test-utils';

function seed() {
  const crm = makeEndpoint({ url: 'https://hooks.example.com/crm' });
  const old = makeEndpoint({
    url: 'https://old.example.com/in',
    enabled: false,
    disabledReason: '5 deliveries in a row failed (last: HTTP 500)',
    disabledAt: '2026-01-15T11:00:00Z',
    failureStreak: 5,
  });
  db.webhooks.push(crm, old);
  const failed = makeDelivery(crm.id, {
    eventType: 'deal.won',
    status: 'failed',
    lastStatusCode: 500,
    lastError: 'HTTP 500',
    attempts: [
      { id: 'a1', attemptedAt: '2026-01-15T10:00:00Z', durationMs: 40, statusCode: 500, error: 'HTTP 500', response: 'database down' },
      { id: 'a2', attemptedAt: '2026-01-15T10:00:30Z', durationMs: 10_000, statusCode: null, error: 'timed out after 10 s', response: null },
    ],
  });
  db.webhookDeliveries.push(failed, makeDelivery(crm.id));
  return { crm, old, failed };
}

/** The `i`th element, or a failed test. */
function nth<T>(list: T[], i: number): T {
  const item = list[i];
  if (item === undefined) throw new Error(`no item ${i}`);
  return item;
}

/** Captures the JSON bodies sent to `method path`. */
function captureBodies(method: 'post' | 'patch', path: string) {
  const bodies: unknown[] = [];
  server.use(
    http[method](path, async ({ request }) => {
      bodies.push(await request.clone().json());
      return undefined;
    }),
  );
  return bodies;
}

describe('Webhooks screen', () => {
  it('is in the Admin group and lists endpoints with their status, a notice for the disabled one and its deliveries', async () => {
    const { crm } = seed();
    const { user, router } = renderApp('/admin', { signedIn: true });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(within(nav).getByRole('list', { name: 'Admin' })).getByRole('link', { name: 'Webhooks' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/webhooks');

    const endpoints = await screen.findByRole('list', { name: 'Endpoints' });
    const items = within(endpoints).getAllByRole('listitem');
    expect(within(nth(items, 0)).getByText('Enabled')).toBeInTheDocument();
    expect(within(nth(items, 0)).getByText(/Contact created, Deal won/)).toBeInTheDocument();
    expect(within(nth(items, 1)).getByText('Disabled')).toBeInTheDocument();
    const notice = screen.getByRole('region', { name: '1 endpoint is disabled' });
    expect(within(notice).getByText(/5 deliveries in a row failed \(last: HTTP 500\)/)).toBeInTheDocument();
    expect(within(nth(items, 1)).getByRole('button', { name: 'Send test event to https://old.example.com/in' })).toBeDisabled();

    // The first endpoint's deliveries: each row opens to its attempts.
    const table = await screen.findByRole('table', { name: 'Deliveries' });
    expect(screen.getByRole('heading', { name: `Deliveries to ${crm.url}` })).toBeInTheDocument();
    const rows = within(table).getAllByRole('row');
    expect(within(nth(rows, 1)).getByText('Deal won')).toBeInTheDocument();
    expect(within(nth(rows, 1)).getByText('Failed')).toBeInTheDocument();
    const toggle = within(nth(rows, 1)).getByRole('button', { name: /^2 attempts of msg_/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const attempts = within(table).getAllByRole('listitem');
    expect(attempts).toHaveLength(2);
    expect(within(nth(attempts, 0)).getByText('HTTP 500', { selector: 'span' })).toBeInTheDocument();
    expect(within(nth(attempts, 0)).getByText('database down')).toBeInTheDocument();
    expect(within(nth(attempts, 1)).getByText('No answer')).toBeInTheDocument();
    expect(within(nth(attempts, 1)).getByText('timed out after 10 s')).toBeInTheDocument();
    expect(within(nth(attempts, 1)).getByText('10.0 s')).toBeInTheDocument();
    const when = nth(attempts, 0).querySelector('time');
    expect(when).toHaveAttribute('dateTime', '2026-01-15T10:00:00Z');
    expect(when?.textContent).toMatch(/Jan 15/);
    expect(await seriousViolations(screen.getByRole('main'))).toEqual([]);
  });

  it('adds an endpoint: checks the form, then shows the secret once with a copy button', async () => {
    seed();
    const bodies = captureBodies('post', '/api/admin/webhooks');
    const { user } = renderApp('/admin/webhooks', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' });
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(within(dialog).getByText('URL is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one event')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    // The server's refusal lands on its field.
    await user.type(within(dialog).getByLabelText('URL'), 'http://hooks.example.com/in');
    await user.click(await within(dialog).findByRole('checkbox', { name: /Invoice paid/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText('URL must use https', { selector: 'p[id]' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('URL')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(within(dialog).getByLabelText('URL'));
    await user.type(within(dialog).getByLabelText('URL'), 'https://erp.example.com/hooks');
    await user.type(within(dialog).getByLabelText('Description'), 'ERP');
    await user.click(within(dialog).getByRole('checkbox', { name: /Background job failed/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));

    const done = await screen.findByRole('dialog', { name: 'Endpoint added' });
    expect(within(done).getByLabelText('Signing secret')).toHaveValue(TEST_SECRET);
    expect(within(done).getByText(/it is not shown again/)).toBeInTheDocument();
    await user.click(within(done).getByRole('button', { name: 'Copy secret' }));
    expect(await within(done).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(TEST_SECRET);
    expect(screen.getByRole('status')).toHaveTextContent('Endpoint added');
    expect(await seriousViolations(done)).toEqual([]);
    await user.click(within(done).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(bodies.at(-1)).toEqual({
      url: 'https://erp.example.com/hooks',
      description: 'ERP',
      eventTypes: ['invoice.paid', 'job.failed'],
    });
    expect(await screen.findByRole('heading', { name: 'https://erp.example.com/hooks' })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(TEST_SECRET)).not.toBeInTheDocument();
  });

  it('re-enables a disabled endpoint from the notice, sends a test event and redelivers', async () => {
    const { old, failed } = seed();
    const patches = captureBodies('patch', `/api/admin/webhooks/${old.id}`);
    const { user } = renderApp('/admin/webhooks', { signedIn: true });
    const notice = await screen.findByRole('region', { name: '1 endpoint is disabled' });
    await user.click(within(notice).getByRole('button', { name: `Re-enable ${old.url}` }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /disabled/ })).not.toBeInTheDocument());
    expect(patches).toEqual([{ enabled: true }]);
    expect(screen.getByRole('status')).toHaveTextContent('Endpoint enabled');

    const table = await screen.findByRole('table', { name: 'Deliveries' });
    await user.click(within(table).getByRole('button', { name: `Redeliver ${failed.id}` }));
    expect(await screen.findByText('Delivery queued again')).toBeInTheDocument();
    expect(await within(table).findByRole('button', { name: `3 attempts of ${failed.id}` })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send test event to https://hooks.example.com/crm' }));
    expect(await screen.findByText('Test event queued')).toBeInTheDocument();
    expect(await within(table).findByText('Test event')).toBeInTheDocument();
  });

  it('rotates the secret after a confirmation and says when a test event is refused', async () => {
    const { crm } = seed();
    server.use(
      http.post(`/api/admin/webhooks/${crm.id}/test`, () =>
        HttpResponse.json({ message: 'This endpoint is disabled: enable it first' }, { status: 409 }),
      ),
    );
    const { user } = renderApp('/admin/webhooks', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: `Rotate secret of ${crm.url}` }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    await user.click(within(confirm).getByRole('button', { name: 'Rotate secret' }));
    const shown = await screen.findByRole('dialog', { name: 'New signing secret' });
    expect(within(shown).getByLabelText('Signing secret')).toHaveValue(`${TEST_SECRET}rotated`);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));

    await user.click(screen.getByRole('button', { name: `Send test event to ${crm.url}` }));
    expect(await screen.findByText('Could not send a test event')).toBeInTheDocument();
    expect(screen.getByText('This endpoint is disabled: enable it first')).toBeInTheDocument();
  });

  it('is not offered to an ordinary session', async () => {
    renderApp('/contacts', { asUser: true });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Webhooks' })).not.toBeInTheDocument();
  });
});
