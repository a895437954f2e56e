import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { chooseOption } from '@/testing/select';

import { Field } from './field';
import { Select } from './select';

const STATUSES = [
  ['', 'All statuses'],
  ['new_lead', 'New lead'],
  ['qualified', 'Qualified'],
  ['customer', 'Customer'],
] as const;

function Harness({ initial = '', onChange = () => {} }: { initial?: string; onChange?: (v: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <Field label="Status" hint="Which contacts to show">
      <Select
        value={value}
        options={STATUSES}
        onValueChange={(v) => {
          setValue(v);
          onChange(v);
        }}
      />
    </Field>
  );
}

describe('Select', () => {
  it('is named by its label and described by its hint', () => {
    render(<Harness />);
    const trigger = screen.getByRole('combobox', { name: 'Status' });
    expect(screen.getByLabelText('Status')).toBe(trigger);
    expect(trigger).toHaveAccessibleDescription('Which contacts to show');
    // '' is a real option ("All statuses"), not a blank.
    expect(trigger).toHaveTextContent('All statuses');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens from the keyboard, moves with the arrows and chooses with Enter', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const trigger = screen.getByRole('combobox', { name: 'Status' });
    await user.tab();
    expect(trigger).toHaveFocus();
    await user.keyboard('{Enter}');
    const list = await screen.findByRole('listbox');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All statuses', 'New lead', 'Qualified', 'Customer']);
    expect(screen.getByRole('option', { name: 'All statuses' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(list).not.toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith('qualified');
    expect(trigger).toHaveTextContent('Qualified');
    expect(trigger).toHaveFocus();

    // Escape closes without a change; choosing "All statuses" gives back ''.
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onChange).toHaveBeenCalledTimes(1);
    await chooseOption(user, trigger, 'All statuses');
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('chooses with a click, shows the placeholder for an unknown value, and can be disabled', async () => {
    const user = userEvent.setup();
    const onValueChange = vi.fn();
    const { rerender } = render(
      <Select aria-label="Agent" value="gone" placeholder="Choose an agent" options={[{ value: 'a1', label: 'Ava' }]} onValueChange={onValueChange} />,
    );
    const trigger = screen.getByRole('combobox', { name: 'Agent' });
    expect(trigger).toHaveTextContent('Choose an agent');
    await chooseOption(user, trigger, 'Ava');
    expect(onValueChange).toHaveBeenCalledWith('a1');
    rerender(<Select aria-label="Agent" value="a1" disabled options={[{ value: 'a1', label: 'Ava' }]} onValueChange={onValueChange} />);
    expect(trigger).toBeDisabled();
    await user.click(trigger);
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
