import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { finishAiJob } from '@/testing/mocks/ai-handlers';
import { db } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('AI Orchestration Center', () => {
  it('shows the figures the api computed, with a dash where there is none', async () => {
    renderApp('/ai-management', { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Orchestration Center' })).toBeInTheDocument();
    await waitFor(() => expect(document.body.textContent).toContain('86.4%'));
    expect(document.body.textContent).toContain('1,234');
    expect(document.body.textContent).toContain('321');
    const models = screen.getByRole('table', { name: 'Model performance' });
    const template = within(models).getByRole('row', { name: /template/ });
    // No accuracy is measured for templates: a dash, not a made-up figure.
    expect(template).toHaveTextContent('template—12 ms57Template answers from CRM data');
  });

  it('shows one card per agent with its success band, and the insights by type', async () => {
    const { user } = renderApp('/ai-management', { signedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Agents' }));
    const agents = await screen.findByRole('list', { name: 'Agents' });
    const scoring = within(agents).getByRole('listitem', { name: 'Lead Scoring Agent' });
    expect(scoring).toHaveTextContent('Excellent');
    expect(scoring).toHaveTextContent('95%');
    expect(scoring).toHaveTextContent('190 / 200 tasks');
    expect(within(agents).getByRole('listitem', { name: 'Discovery Agent' })).toHaveTextContent('Good');
    expect(within(agents).getByRole('listitem', { name: 'Voice Agent' })).toHaveTextContent('Needs Improvement');
    expect(screen.getByText('41.2%')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Insights' }));
    const insights = await screen.findByRole('list', { name: 'Recent insights' });
    const failing = within(insights).getByRole('listitem', { name: 'Voice calls fail often' });
    expect(within(failing).getByText('alert')).toHaveClass('bg-rose-100');
    expect(within(insights).getByRole('listitem', { name: 'Texas replies most' })).toHaveTextContent('Implemented');
    expect(failing).toHaveTextContent('Confidence 30%');

    await user.click(screen.getByRole('tab', { name: 'Training' }));
    expect(await screen.findByRole('list', { name: 'Data points per agent' })).toHaveTextContent('Lead Scoring Agent640 data points');
    expect(screen.getByText('Task history kept').nextSibling).toHaveTextContent('7 days');
    expect(screen.getByText('Auto-refresh interval').nextSibling).toHaveTextContent('30 seconds');
  });

  it('runs the sentiment tool, labels a template answer, and refuses an empty form', async () => {
    const requests = recordRequests();
    const analyticsReads = () => requests.filter((r) => r.path === '/api/ai/analytics').length;
    const { user } = renderApp('/ai-management', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Market sentiment' });
    await user.click(within(form).getByRole('button', { name: 'Analyze Sentiment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Company name and industry are required');
    expect(db.aiRequests).toHaveLength(0);

    await user.type(within(form).getByLabelText('Company name'), 'Sunrise Bath');
    await user.type(within(form).getByLabelText('Industry'), 'bath remodeling');
    await user.click(within(form).getByRole('button', { name: 'Analyze Sentiment' }));
    const result = await screen.findByRole('region', { name: 'Sentiment result' });
    expect(result).toHaveTextContent('Template fallback');
    expect(result).toHaveTextContent('72/100');
    expect(within(result).getByRole('list', { name: 'Key factors' })).toHaveTextContent('Industry: bath remodeling');
    expect(db.aiRequests[0]).toEqual({ path: '/api/ai/sentiment-analysis', body: { companyName: 'Sunrise Bath', industry: 'bath remodeling' } });
    // The run counts in the analytics: they are read again.
    await waitFor(() => expect(analyticsReads()).toBe(2));
  });

  it('follows a queued outreach job to its result', async () => {
    db.aiQueue = true;
    db.aiModel = true;
    const { user } = renderApp('/ai-management', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Personalized outreach' });
    await user.type(within(form).getByLabelText('Contact name'), 'Rosa Diaz');
    await user.type(within(form).getByLabelText('Company name'), 'Sunrise Bath');
    await user.click(within(form).getByRole('button', { name: 'Generate Outreach' }));
    expect(await within(form).findByRole('button', { name: 'Generating...' })).toBeDisabled();
    finishAiJob({ subject: 'Partnering with Sunrise Bath', content: 'Hi Rosa,', source: 'llm', fallback: false, model: 'gpt-test', message: 'Outreach drafted by the AI model' });
    const result = await screen.findByRole('region', { name: 'Outreach result' }, { timeout: 4000 });
    expect(result).toHaveTextContent('Subject: Partnering with Sunrise Bath');
    expect(result).toHaveTextContent('AI model: gpt-test');
    expect(result).not.toHaveTextContent('Template fallback');
  });

  it("shows the provider's failure instead of a result", async () => {
    server.use(http.post('/api/ai/market-intelligence', () => HttpResponse.json({ message: 'The AI provider answered 500' }, { status: 502 })));
    const { user } = renderApp('/ai-management', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Market intelligence' });
    await user.type(within(form).getByLabelText('Company name'), 'Sunrise Bath');
    await user.type(within(form).getByLabelText('Research question'), 'Growth plans');
    await user.click(within(form).getByRole('button', { name: 'Research' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The AI provider answered 500');
    expect(screen.queryByRole('region', { name: 'Intelligence result' })).not.toBeInTheDocument();
  });

  it('lists the integrations and the email automation computed by the api', async () => {
    const { user } = renderApp('/ai-management', { signedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'MCP' }));
    const connections = await screen.findByRole('table', { name: 'Active connections' });
    expect(within(connections).getByRole('row', { name: /Voice API/ })).toHaveTextContent('2 of 5 calls failed');
    await user.click(screen.getByRole('tab', { name: 'Email Automation' }));
    const workflows = await screen.findByRole('region', { name: 'Automation workflows' });
    expect(within(workflows).getByRole('listitem', { name: 'Trade show follow-up' })).toHaveTextContent('14 enrolled');
    expect(screen.getByRole('region', { name: 'Projections' })).toHaveTextContent('$12,500.00');
  });

  it('turns auto-refresh off from the config tab and says the figures now stay as they are', async () => {
    const { user } = renderApp('/ai-management', { signedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Config' }));
    const toggle = screen.getByRole('switch', { name: /Auto-refresh every 30 seconds/ });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(screen.getByText(/Auto-refresh is off/)).toBeInTheDocument();
  });
});
