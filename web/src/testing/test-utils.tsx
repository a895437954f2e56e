import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';

import { AppProvider } from '@/app/provider';
import { createQueryClient } from '@/app/query-client';
import { routes } from '@/app/router';

import { db } from './mocks/db';

type RenderAppOptions = {
  /** Start with an admin session open (default false). */
  signedIn?: boolean;
  /** Start with an ordinary user's session open instead (default false). */
  asUser?: boolean;
};

/** Renders the whole app (routes, providers) at `path` with a fresh query client. */
export function renderApp(path: string, { signedIn = false, asUser = false }: RenderAppOptions = {}) {
  db.signedIn = signedIn || asUser;
  db.userSession = asUser;
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient, user };
}

/** Renders one component inside the app's providers (no router). */
export function renderWithProviders(ui: ReactElement) {
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const view = render(<AppProvider queryClient={queryClient}>{ui}</AppProvider>);
  return { ...view, queryClient, user };
}
