import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { dayInputPattern, formatDayInput } from '@/lib/format';
import { seriousViolations } from '@/testing/axe';

import { DatePicker, DateTimePicker } from './date-picker';
import { Field } from './field';

function Harness({ initial = '', min, max, onValue }: { initial?: string; min?: string; max?: string; onValue?: (v: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <Field label="Due date">
      <DatePicker
        value={value}
        min={min}
        max={max}
        onChange={(v) => {
          setValue(v);
          onValue?.(v);
        }}
      />
    </Field>
  );
}

const setup = (props: Parameters<typeof Harness>[0] = {}) => {
  const onValue = vi.fn();
  const user = userEvent.setup();
  const view = render(<Harness onValue={onValue} {...props} />);
  return { ...view, user, onValue, field: screen.getByLabelText('Due date') };
};

describe('DatePicker', () => {
  it('takes a typed ISO day or the locale’s form, and shows the day the locale’s way', async () => {
    const { user, onValue, field } = setup();
    expect(field).toHaveAttribute('placeholder', dayInputPattern());

    await user.type(field, '2026-12-03');
    expect(onValue).toHaveBeenLastCalledWith('2026-12-03');
    await user.tab();
    expect(field).toHaveValue(formatDayInput('2026-12-03'));

    await user.clear(field);
    expect(onValue).toHaveBeenLastCalledWith('');
    await user.type(field, formatDayInput('2027-01-31'));
    expect(onValue).toHaveBeenLastCalledWith('2027-01-31');
  });

  it('flags text that is not a day, and keeps no value for it', async () => {
    const { user, onValue, field } = setup({ initial: '2026-12-03' });
    await user.clear(field);
    await user.type(field, '2026-02-30');
    await user.tab();
    expect(onValue).toHaveBeenLastCalledWith('');
    expect(field).toHaveValue('2026-02-30');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(`Enter a date as ${dayInputPattern()} or YYYY-MM-DD.`);
  });

  it('picks a day in the calendar from the keyboard and gives focus back', async () => {
    const { user, onValue, field } = setup({ initial: '2026-12-03' });
    const button = screen.getByRole('button', { name: 'Choose date' });
    expect(button).toHaveAccessibleDescription('Due date');
    await user.click(button);

    const calendar = await screen.findByRole('dialog', { name: 'Calendar' });
    const grid = within(calendar).getByRole('grid', { name: 'December 2026' });
    // The chosen day has focus; arrows move by day and by week.
    expect(document.activeElement).toBe(within(grid).getByRole('button', { name: /December 3rd, 2026, selected/ }));
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(document.activeElement).toBe(within(grid).getByRole('button', { name: /December 11th, 2026/ }));
    await user.keyboard('{Enter}');

    expect(onValue).toHaveBeenLastCalledWith('2026-12-11');
    expect(screen.queryByRole('dialog', { name: 'Calendar' })).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(field).toHaveValue(formatDayInput('2026-12-11'));
  });

  it('picks a day with the mouse', async () => {
    const { user, onValue } = setup({ initial: '2026-12-03' });
    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    await user.click(await screen.findByRole('button', { name: /December 24th, 2026/ }));
    expect(onValue).toHaveBeenLastCalledWith('2026-12-24');
  });

  it('closes on Escape without a change, focus back on the calendar button', async () => {
    const { user, onValue } = setup({ initial: '2026-12-03' });
    const button = screen.getByRole('button', { name: 'Choose date' });
    await user.click(button);
    await screen.findByRole('dialog', { name: 'Calendar' });
    await user.keyboard('{ArrowLeft}{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Calendar' })).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(onValue).not.toHaveBeenCalled();
  });

  it('offers only days between min and max', async () => {
    const { user } = setup({ initial: '2026-12-10', min: '2026-12-05', max: '2026-12-20' });
    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    const calendar = await screen.findByRole('dialog', { name: 'Calendar' });
    expect(within(calendar).getByRole('button', { name: /December 4th, 2026/ })).toBeDisabled();
    expect(within(calendar).getByRole('button', { name: /December 5th, 2026/ })).toBeEnabled();
    expect(within(calendar).getByRole('button', { name: /December 21st, 2026/ })).toBeDisabled();
    expect(within(calendar).getByRole('button', { name: /next month/i })).toHaveAttribute('aria-disabled', 'true');
  });

  it('clears the day', async () => {
    const { user, onValue, field } = setup({ initial: '2026-12-03' });
    await user.click(screen.getByRole('button', { name: 'Clear date' }));
    expect(onValue).toHaveBeenLastCalledWith('');
    expect(field).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Clear date' })).not.toBeInTheDocument();
  });

  it('has no serious axe violations, closed or open', async () => {
    const { user, container } = setup({ initial: '2026-12-03' });
    expect(await seriousViolations(container)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    await screen.findByRole('dialog', { name: 'Calendar' });
    expect(await seriousViolations(document.body)).toEqual([]);
  });
});

function DateTimeHarness({ onValue }: { onValue: (v: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <>
      <Field label="Date and time">
        <DateTimePicker
          value={value}
          onChange={(v) => {
            setValue(v);
            onValue(v);
          }}
        />
      </Field>
      <button type="button" onClick={() => setValue('')}>
        Reset
      </button>
    </>
  );
}

describe('DateTimePicker', () => {
  it('gives a datetime-local value once both the day and the time are in', async () => {
    const onValue = vi.fn();
    const user = userEvent.setup();
    render(<DateTimeHarness onValue={onValue} />);
    await user.type(screen.getByLabelText('Date and time'), '2030-03-01');
    expect(onValue).not.toHaveBeenCalled();
    const time = screen.getByRole('textbox', { name: 'Date and time' }).closest('div.flex')?.querySelector('input[type="time"]');
    expect(time).toHaveAccessibleName('Time');
    expect(time).toHaveAccessibleDescription(/Date and time.*Add a time as well\./);

    await user.type(time as HTMLElement, '15:00');
    expect(onValue).toHaveBeenLastCalledWith('2030-03-01T15:00');
    expect(screen.queryByText('Add a time as well.')).not.toBeInTheDocument();

    // A reset from the form empties both halves.
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByLabelText('Date and time')).toHaveValue('');
    expect(time).toHaveValue('');
  });

  it('has no serious axe violations, half filled or whole', async () => {
    const user = userEvent.setup();
    const { container } = render(<DateTimeHarness onValue={vi.fn()} />);
    await user.type(screen.getByLabelText('Date and time'), '2030-03-01');
    expect(await seriousViolations(container)).toEqual([]);
    await user.type(screen.getByLabelText('Time'), '15:00');
    expect(await seriousViolations(container)).toEqual([]);
  });

  it('clears the day and the time together', async () => {
    const onValue = vi.fn();
    const user = userEvent.setup();
    render(<DateTimeHarness onValue={onValue} />);
    await user.type(screen.getByLabelText('Date and time'), '2030-03-01');
    await user.type(screen.getByLabelText('Time'), '09:30');
    await user.click(screen.getByRole('button', { name: 'Clear date' }));
    expect(onValue).toHaveBeenLastCalledWith('');
    expect(screen.getByLabelText('Time')).toHaveValue('');
  });
});
