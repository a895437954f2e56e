import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { Pager } from './pager';

describe('Pager', () => {
  it('reads a floor total as "1,000+" and pages on while pages come back full', async () => {
    const onOffsetChange = vi.fn();
    render(<Pager offset={950} count={50} total={1000} exact={false} pageSize={50} onOffsetChange={onOffsetChange} />);
    expect(screen.getByText('Showing 951–1000 of 1,000+')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onOffsetChange).toHaveBeenCalledWith(1000);
  });

  it('stops at a short page when the total is a floor, and at the total when it is exact', () => {
    const { rerender } = render(
      <Pager offset={1000} count={20} total={1000} exact={false} pageSize={50} onOffsetChange={() => {}} />,
    );
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    rerender(<Pager offset={50} count={50} total={100} pageSize={50} onOffsetChange={() => {}} />);
    expect(screen.getByText('Showing 51–100 of 100')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
