import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createQueryClient } from '@/app/query-client';
import { chooseOption } from '@/testing/select';
import { resetSavedTemplates, savedTemplates } from '@/testing/mocks/campaign-handlers';
import { db, makeContact } from '@/testing/mocks/db';

import type { EmailDraft } from '../api/types';
import { EmailComposer, mergeTag } from './email-composer';

function Harness() {
  const [draft, setDraft] = useState<EmailDraft>({ subject: '', body: '' });
  return <EmailComposer value={draft} onChange={setDraft} />;
}

function renderComposer() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Harness />
    </QueryClientProvider>,
  );
  return user;
}

describe('EmailComposer', () => {
  beforeEach(() => {
    db.signedIn = true;
  });
  afterEach(() => {
    resetSavedTemplates();
  });

  it('builds merge tags with and without a fallback', () => {
    expect(mergeTag('firstName', '')).toBe('{{firstName}}');
    expect(mergeTag('firstName', ' there ')).toBe('{{firstName|there}}');
  });

  it('inserts a field with its fallback and previews the message for a chosen contact', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Able', email: 'ann@x.test' });
    makeContact({ firstName: '', lastName: 'Blank', email: 'blank@x.test' });
    const user = renderComposer();
    await user.type(screen.getByLabelText('Subject'), 'Quick question');
    await user.type(screen.getByLabelText('Body'), 'Hi ');
    await user.type(screen.getByLabelText('Fallback if empty'), 'there');
    await chooseOption(user, screen.getByLabelText('Insert field'), 'First name');
    expect(screen.getByLabelText('Body')).toHaveValue('Hi {{firstName|there}}');

    const preview = screen.getByRole('region', { name: 'Email preview' });
    const frame = await within(preview).findByTitle('Rendered email');
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('Hi Ann'));
    const picker = within(preview).getByLabelText('Preview for contact');
    await chooseOption(user, picker, /blank@x\.test/);
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('Hi there'));
    expect(within(preview).getByTestId('preview-subject')).toHaveTextContent('Quick question');
  });

  it('sends a test to the signed-in user and saves the draft as a template', async () => {
    makeContact({ firstName: 'Ann', lastName: 'Able', email: 'ann@x.test' });
    const user = renderComposer();
    await user.type(screen.getByLabelText('Subject'), 'Hello');
    await user.type(screen.getByLabelText('Body'), 'Body text');
    await user.click(screen.getByRole('button', { name: 'Send test to me' }));
    expect(await screen.findByText('Test sent to me@x.test.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Template name'), 'My intro');
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    await waitFor(() => expect(savedTemplates.map((t) => t.name)).toEqual(['My intro']));
    expect(savedTemplates[0]).toMatchObject({ subject: 'Hello', body: 'Body text' });
    await user.click(screen.getByLabelText('Start from template'));
    expect(await screen.findByRole('option', { name: 'My intro (saved)' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(await screen.findByRole('button', { name: 'Delete template' }));
    await waitFor(() => expect(savedTemplates).toHaveLength(0));
  });
});
