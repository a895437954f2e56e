import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('public pages', () => {
  it('checks the dealer form with the seed messages before sending', async () => {
    const requests = recordRequests();
    const { user } = renderApp('/dealers');
    const form = await screen.findByRole('form', { name: 'Schedule a Conversation' });
    await user.type(within(form).getByLabelText('Company name'), 'A');
    await user.type(within(form).getByLabelText('Email'), 'not-an-email');
    await user.click(within(form).getByRole('button', { name: 'Schedule a Conversation' }));
    expect(within(form).getByText('Company name is required')).toBeInTheDocument();
    expect(within(form).getByText('Your name is required')).toBeInTheDocument();
    expect(within(form).getByText('Valid email is required')).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/leads')).toBe(false);
  });

  it('submits the dealer form without a session and lands on /thank-you', async () => {
    let body: unknown;
    server.use(
      http.post('/api/leads', async ({ request }) => {
        body = await request.clone().json();
      }),
    );
    const { user, router } = renderApp('/dealers');
    const form = await screen.findByRole('form', { name: 'Schedule a Conversation' });
    await user.type(within(form).getByLabelText('Company name'), 'Castillo Remodeling');
    await user.type(within(form).getByLabelText('Your name'), 'Erin Castillo');
    await user.type(within(form).getByLabelText('Email'), 'erin@castillo.test');
    await user.type(within(form).getByLabelText('State'), 'TX');
    await chooseOption(user, within(form).getByLabelText('Annual revenue'), '$10-25M');
    await user.click(within(form).getByRole('button', { name: 'Schedule a Conversation' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Thank you!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/thank-you');
    expect(screen.getByText('Our team will contact you within 1-2 business days.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the dealer page' })).toHaveAttribute('href', '/dealers');
    expect(body).toMatchObject({
      companyName: 'Castillo Remodeling',
      contactName: 'Erin Castillo',
      email: 'erin@castillo.test',
      state: 'TX',
      annualRevenue: '10-25M',
      companyType: null,
      fax: '',
    });
  });

  it("shows the server's message when the lead is refused", async () => {
    server.use(http.post('/api/leads', () => HttpResponse.json({ message: 'Too many submissions' }, { status: 429 })));
    const { user } = renderApp('/dealers');
    const form = await screen.findByRole('form', { name: 'Schedule a Conversation' });
    await user.type(within(form).getByLabelText('Company name'), 'Castillo Remodeling');
    await user.type(within(form).getByLabelText('Your name'), 'Erin Castillo');
    await user.type(within(form).getByLabelText('Email'), 'erin@castillo.test');
    await user.click(within(form).getByRole('button', { name: 'Schedule a Conversation' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Too many submissions');
  });

  it.each([
    ['/privacy-policy', 'Privacy Policy'],
    ['/terms-of-service', 'Terms of Service'],
  ])('serves %s dated December 10, 2024, linked from the landing footer', async (path, heading) => {
    const { user } = renderApp('/');
    const legal = await screen.findByRole('navigation', { name: 'Legal' });
    await user.click(within(legal).getByRole('link', { name: heading }));
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getByText('Last updated: December 10, 2024')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Legal' })).getByRole('link', { name: heading })).toHaveAttribute('href', path);
  });
});
