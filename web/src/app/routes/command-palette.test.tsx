import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { makeBulkCampaign } from '@/testing/mocks/campaign-handlers';
import { makeCompany, makeContact } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const palette = () => screen.findByRole('dialog', { name: 'Search and commands' });
const searches = (requests: ReturnType<typeof recordRequests>) => requests.filter((r) => r.path === '/api/search');

async function openWithKeyboard(user: ReturnType<typeof renderApp>['user'], heading: string) {
  await screen.findByRole('heading', { level: 1, name: heading });
  await user.keyboard('{Control>}k{/Control}');
  return palette();
}

describe('command palette', () => {
  it('opens on Ctrl-K with "Go to" commands for the screens an admin may see, and goes there with the keyboard', async () => {
    const { user, router } = renderApp('/admin', { signedIn: true });
    const dialog = await openWithKeyboard(user, 'Business Intelligence Dashboard');
    const input = within(dialog).getByRole('combobox', { name: 'Search' });
    expect(input).toHaveFocus();
    const goTo = within(dialog).getByRole('group', { name: 'Go to' });
    const commands = within(goTo).getAllByRole('option').map((o) => o.textContent);
    expect(commands).toContain('Go to Ops');
    expect(commands).toContain('Go to Users');
    expect(commands.slice(0, 3)).toEqual(['Go to Dashboard', 'Go to Discovery', 'Go to Pipeline']);

    // Typing narrows the commands; the first is chosen, arrows move.
    await user.type(input, 'email');
    expect(within(dialog).getByRole('option', { name: 'Go to Email Campaigns' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).queryByRole('option', { name: 'Go to Leads' })).not.toBeInTheDocument();
    await user.keyboard('{ArrowDown}');
    expect(within(dialog).getByRole('option', { name: 'Go to Email Sequences' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Sequences' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/email-sequences');
    expect(screen.queryByRole('dialog', { name: 'Search and commands' })).not.toBeInTheDocument();
  });

  it('offers an ordinary session no admin screens', async () => {
    const { user } = renderApp('/', { asUser: true });
    const dialog = await openWithKeyboard(user, 'Business Intelligence Dashboard');
    const commands = within(dialog).getAllByRole('option').map((o) => o.textContent);
    expect(commands).toContain('Go to Pipeline');
    expect(commands).not.toContain('Go to Ops');
    expect(commands).not.toContain('Go to Users');
  });

  it('searches once typing rests, shows groups with totals, and Enter opens the result under /admin', async () => {
    const acme = makeCompany({ name: 'Acme Bath LLC', location: 'Dallas, TX' });
    makeCompany({ name: 'Acme Showers', location: null });
    makeContact({ firstName: 'Ann', lastName: 'Acme', email: 'ann@acme.test' });
    const requests = recordRequests();
    const { user, router } = renderApp('/admin/contacts', { signedIn: true });
    const dialog = await openWithKeyboard(user, 'Contact Intelligence');
    await user.type(within(dialog).getByRole('combobox'), 'acme');

    const companies = await within(dialog).findByRole('group', { name: 'Companies · 2' });
    expect(within(companies).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Acme Bath LLCDallas, TX',
      'Acme Showers',
    ]);
    expect(within(dialog).getByRole('group', { name: 'Contacts · 1' })).toHaveTextContent('Ann Acme');
    // Typed in one go: one request, for the whole query.
    expect(searches(requests)).toEqual([{ method: 'GET', path: '/api/search', search: '?q=acme' }]);

    expect(within(companies).getByRole('option', { name: /Acme Bath LLC/ })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bath LLC' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/admin/companies/${acme.id}`);
  });

  it('keeps the query string of a result and adds the /admin prefix', async () => {
    const campaign = makeBulkCampaign({ name: 'Spring Promo' });
    for (let i = 1; i <= 6; i += 1) makeBulkCampaign({ name: `Later ${i}` });
    const { user, router } = renderApp('/admin', { signedIn: true });
    const dialog = await openWithKeyboard(user, 'Business Intelligence Dashboard');
    await user.type(within(dialog).getByRole('combobox'), 'spring');
    await user.click(await within(dialog).findByRole('option', { name: 'Spring Promo' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/email-campaigns'));
    expect(router.state.location.search).toBe(`?campaign=${campaign.id}`);
    // The campaign screen puts that campaign first, marked, even past its five most recent.
    const recent = await screen.findByRole('list', { name: 'Recent campaigns' });
    const cards = within(recent).getAllByRole('listitem');
    expect(cards).toHaveLength(5);
    expect(cards[0]).toHaveAccessibleName('Spring Promo');
    expect(cards[0]).toHaveAttribute('aria-current', 'true');
  });

  it('does not ask the server for one character', async () => {
    const requests = recordRequests();
    const { user } = renderApp('/contacts', { signedIn: true });
    const dialog = await openWithKeyboard(user, 'Contact Intelligence');
    await user.type(within(dialog).getByRole('combobox'), ' a ');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(searches(requests)).toEqual([]);
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it('says so when nothing matches', async () => {
    const { user } = renderApp('/contacts', { signedIn: true });
    const dialog = await openWithKeyboard(user, 'Contact Intelligence');
    await user.type(within(dialog).getByRole('combobox'), 'zzqx');
    expect(await within(dialog).findByRole('status')).toHaveTextContent('No results for “zzqx”');
  });

  it("shows the server's error instead of throwing, and keeps the Go to commands", async () => {
    server.use(http.get('/api/search', () => HttpResponse.json({ message: 'Search is resting' }, { status: 503 })));
    const { user } = renderApp('/contacts', { signedIn: true });
    const dialog = await openWithKeyboard(user, 'Contact Intelligence');
    await user.type(within(dialog).getByRole('combobox'), 'leads');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Search failed: Search is resting');
    expect(within(dialog).getByRole('option', { name: 'Go to Leads' })).toBeInTheDocument();
  });

  it('opens from the top bar button; Escape closes it and gives focus back', async () => {
    const { user } = renderApp('/contacts', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Contact Intelligence' });
    const button = within(screen.getByRole('banner')).getByRole('button', { name: /^Search…/ });
    expect(button).toHaveAttribute('aria-keyshortcuts', 'Control+K');
    await user.click(button);
    const dialog = await palette();
    expect(within(dialog).getByRole('combobox')).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search and commands' })).not.toBeInTheDocument());
    expect(button).toHaveFocus();

    // Opened again, it starts empty.
    await user.click(button);
    expect(within(await palette()).getByRole('combobox')).toHaveValue('');
  });

  describe('on a Mac', () => {
    afterEach(() => vi.restoreAllMocks());

    it('opens with ⌘K, not Ctrl-K, and the button says so', async () => {
      vi.spyOn(navigator, 'platform', 'get').mockReturnValue('MacIntel');
      const { user } = renderApp('/contacts', { signedIn: true });
      await screen.findByRole('heading', { level: 1, name: 'Contact Intelligence' });
      const button = within(screen.getByRole('banner')).getByRole('button', { name: /^Search…/ });
      expect(button).toHaveTextContent('⌘K');
      expect(button).toHaveAttribute('aria-keyshortcuts', 'Meta+K');
      await user.keyboard('{Control>}k{/Control}');
      expect(screen.queryByRole('dialog', { name: 'Search and commands' })).not.toBeInTheDocument();
      await user.keyboard('{Meta>}k{/Meta}');
      expect(await palette()).toBeInTheDocument();
    });
  });
});
