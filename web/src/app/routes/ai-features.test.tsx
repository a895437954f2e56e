import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { captureDownloads } from '@/testing/downloads';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const pdf = () => new File(['%PDF-1.4 invoice'], 'invoice.pdf', { type: 'application/pdf' });

describe('AI Features', () => {
  it('extracts invoice data from a chosen document and shows where the answer came from', async () => {
    const { user } = renderApp('/ai-features', { signedIn: true });
    const extract = await screen.findByRole('button', { name: 'Extract Invoice Data' });
    expect(extract).toBeDisabled();
    await user.upload(screen.getByLabelText('Choose a document'), pdf());
    expect(screen.getByText('Selected: invoice.pdf')).toBeInTheDocument();
    await user.click(extract);
    const result = await screen.findByRole('region', { name: 'Extracted invoice' });
    expect(result).toHaveTextContent('INV-2041');
    expect(result).toHaveTextContent('Sunrise Bath');
    expect(result).toHaveTextContent('$1,250.50');
    expect(result).toHaveTextContent('Template fallback');
    expect(db.aiRequests).toEqual([{ path: '/api/ai/invoice-extract', fields: ['document'] }]);

    // Analysing the same document adds its analysis; a new document clears both.
    await user.click(screen.getByRole('button', { name: 'Analyze Document' }));
    const analysis = await screen.findByRole('region', { name: 'Document analysis' });
    expect(within(analysis).getByRole('table', { name: 'Key data' })).toHaveTextContent('term12 months');
    await user.upload(screen.getByLabelText('Choose a document'), new File(['x'], 'other.docx'));
    expect(screen.queryByRole('region', { name: 'Extracted invoice' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Document analysis' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal, or the seed's 'HTTP error! status' when it gives none", async () => {
    server.use(http.post('/api/ai/invoice-extract', () => HttpResponse.json({ message: 'Documents are limited to 15 MB' }, { status: 413 })));
    const { user } = renderApp('/ai-features', { signedIn: true });
    await user.upload(await screen.findByLabelText('Choose a document'), pdf());
    await user.click(screen.getByRole('button', { name: 'Extract Invoice Data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Documents are limited to 15 MB');

    server.use(http.post('/api/ai/document-analyze', () => new HttpResponse('Bad Gateway', { status: 502 })));
    await user.click(screen.getByRole('button', { name: 'Analyze Document' }));
    await waitFor(() => expect(document.body.textContent).toContain('HTTP error! status: 502'));
  });

  it('generates content of the chosen type and downloads it as generated_{type}.txt', async () => {
    db.aiModel = true;
    const downloads = captureDownloads();
    const { user } = renderApp('/ai-features', { signedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Content Gen' }));
    const form = screen.getByRole('form', { name: 'Generate content' });
    expect(within(form).getByRole('button', { name: 'Generate' })).toBeDisabled();
    await user.type(within(form).getByLabelText('Context'), '   ');
    await user.click(within(form).getByRole('button', { name: 'Generate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please provide context for content generation');
    expect(db.aiRequests).toHaveLength(0);

    await chooseOption(user, within(form).getByLabelText('Content type'), 'Proposal');
    await user.clear(within(form).getByLabelText('Context'));
    await user.type(within(form).getByLabelText('Context'), 'Walk-in tubs for a dealer in Tulsa');
    await user.click(within(form).getByRole('button', { name: 'Generate' }));
    expect(await screen.findByLabelText('Generated text')).toHaveTextContent('Line 10 of the proposal');
    expect(db.aiRequests[0]?.body).toEqual({ type: 'proposal', context: { description: 'Walk-in tubs for a dealer in Tulsa', type: 'proposal' } });
    expect(screen.getByText('AI model: gpt-test')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(downloads).toEqual(['generated_proposal.txt']);

    // The overview says which answered last.
    await user.click(screen.getByRole('tab', { name: 'AI Overview' }));
    await waitFor(() => expect(document.body.textContent).toContain('gpt-test'));
  });

  it('checks the insights data is a JSON array before sending it, then downloads the insights', async () => {
    const downloads = captureDownloads();
    const { user } = renderApp('/ai-features', { signedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Insights' }));
    const form = screen.getByRole('form', { name: 'Generate insights' });
    const data = within(form).getByLabelText('Data (JSON array)');
    await user.type(data, '{{"month": "Jan"}');
    await user.click(within(form).getByRole('button', { name: 'Generate AI Insights' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please provide valid JSON array data');
    expect(db.aiRequests).toHaveLength(0);

    await user.clear(data);
    await user.type(data, '[[{{"month": "Jan", "leads": 42}, {{"month": "Feb", "leads": 55}]');
    await user.click(within(form).getByRole('button', { name: 'Generate AI Insights' }));
    expect(await screen.findByLabelText('Insights text')).toHaveTextContent('2 rows: leads grow month over month.');
    expect(db.aiRequests[0]?.body).toEqual({ data: [{ month: 'Jan', leads: 42 }, { month: 'Feb', leads: 55 }] });
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(downloads).toEqual(['business_insights.txt']);
  });
});
