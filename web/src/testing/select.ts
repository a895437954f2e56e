import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** Opens a `Select` (its trigger: a combobox) and picks the option named `name`, as a user would. */
export async function chooseOption(user: UserEvent, trigger: HTMLElement, name: string | RegExp) {
  await user.click(trigger);
  await user.click(await screen.findByRole('option', { name }));
}
