import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '@/testing/test-utils';

import { RecordCombobox, type ComboOption } from './record-combobox';

const PEOPLE: ComboOption[] = [
  { id: 'c1', label: 'Ann Lee', detail: 'Acme Bath' },
  { id: 'c2', label: 'Andy Ortiz', detail: 'Lone Star' },
  { id: 'c3', label: 'Bea King', detail: null },
];

function Harness({ search, onPick }: { search: (q: string) => Promise<ComboOption[]>; onPick: (o: ComboOption | null) => void }) {
  const [value, setValue] = useState({ id: 'c3', label: 'Bea King' });
  return (
    <>
      <label htmlFor="who">Contact</label>
      <RecordCombobox
        id="who"
        value={value.id}
        valueLabel={value.label}
        onChange={(o) => {
          onPick(o);
          setValue({ id: o?.id ?? '', label: o?.label ?? '' });
        }}
        search={(q) => search(q)}
        queryKey={(text) => ['test-combobox', text]}
        noneLabel="No contact"
      />
    </>
  );
}

describe('RecordCombobox', () => {
  it('searches the server as one types and is chosen from the keyboard', async () => {
    const search = vi.fn((q: string) => Promise.resolve(PEOPLE.filter((p) => p.label.toLowerCase().includes(q.toLowerCase()))));
    const onPick = vi.fn();
    const { user } = renderWithProviders(<Harness search={search} onPick={onPick} />);
    const box = screen.getByRole('combobox', { name: 'Contact' });
    expect(box).toHaveValue('Bea King');
    expect(box).toHaveAttribute('aria-expanded', 'false');

    await user.type(box, 'an');
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('an'));
    const list = await screen.findByRole('listbox');
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['No contact', 'Ann LeeAcme Bath', 'Andy OrtizLone Star']));
    // The first match is active; ↓ moves to the next; Enter chooses it.
    expect(screen.getByRole('option', { name: /Ann Lee/ })).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: /Ann Lee/ }).id);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onPick).toHaveBeenLastCalledWith(PEOPLE[1]);
    expect(list).not.toBeInTheDocument();
    expect(box).toHaveValue('Andy Ortiz');

    // "No contact" clears the choice; Escape closes without choosing.
    await user.click(box);
    await user.click(await screen.findByRole('option', { name: 'No contact' }));
    expect(onPick).toHaveBeenLastCalledWith(null);
    expect(box).toHaveValue('');
    await user.click(box);
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onPick).toHaveBeenCalledTimes(2);
  });

  it('says when nothing matches and when the search fails', async () => {
    const search = vi.fn((q: string) => (q === 'zz' ? Promise.resolve([]) : Promise.reject(new Error('down'))));
    const { user } = renderWithProviders(<Harness search={search} onPick={() => {}} />);
    const box = screen.getByRole('combobox', { name: 'Contact' });
    await user.type(box, 'zz');
    expect(await screen.findByText('No match for “zz”')).toBeInTheDocument();
    await user.type(box, 'x');
    expect(await screen.findByText('Search failed; try again.', {}, { timeout: 4000 })).toBeInTheDocument();
  });
});
