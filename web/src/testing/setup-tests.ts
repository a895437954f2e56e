import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

import { resetAllStores } from '@/stores/create-store';

import { resetDb } from './mocks/db';
import { server } from './mocks/server';

const unhandled: string[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

beforeEach(() => {
  unhandled.length = 0;
  server.events.on('request:unhandled', ({ request }) => {
    unhandled.push(`${request.method} ${request.url}`);
  });
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  server.events.removeAllListeners();
  resetDb();
  resetAllStores();
  if (unhandled.length > 0) {
    throw new Error(`Unhandled requests in this test:\n${unhandled.join('\n')}`);
  }
});

afterAll(() => server.close());
