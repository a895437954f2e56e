import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { BulkDelete, BulkStatus } from './bulk-actions';
import { chooseOption } from '@/testing/select';

describe('BulkStatus', () => {
  it('applies the status picked, not before one is picked, and waits while it is applied', async () => {
    const onApply = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(<BulkStatus statuses={['new_lead', 'not_interested']} pending={false} onApply={onApply} />);
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    await chooseOption(user, screen.getByRole('combobox', { name: 'Set status' }), 'not interested');
    await user.click(apply);
    expect(onApply).toHaveBeenCalledWith('not_interested');
    rerender(<BulkStatus statuses={['new_lead', 'not_interested']} pending onApply={onApply} />);
    expect(screen.getByRole('button', { name: 'Applying…' })).toBeDisabled();
  });
});

describe('BulkDelete', () => {
  it('asks first, naming how many; Cancel deletes nothing', async () => {
    const onDelete = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    render(<BulkDelete what="3 contacts" consequence="Their notes go with them." onDelete={onDelete} />);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 3 contacts?' });
    expect(dialog).toHaveAccessibleDescription('Their notes go with them. This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onDelete).not.toHaveBeenCalled();
  });

  it("shows the server's refusal in the dialog, then closes once the delete goes through", async () => {
    const onDelete = vi.fn().mockRejectedValueOnce(new Error('Contact not found: ct-9')).mockResolvedValueOnce(undefined);
    const user = userEvent.setup();
    render(<BulkDelete what="1 contact" consequence="Gone." onDelete={onDelete} />);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 contact?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1 contact' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Contact not found: ct-9');
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1 contact' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onDelete).toHaveBeenCalledTimes(2);
  });
});
