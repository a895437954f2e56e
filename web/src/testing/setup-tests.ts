import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

import { resetAllStores } from '@/stores/create-store';

import { resetDb } from './mocks/db';
import { server } from './mocks/server';

// Screens are lazy chunks: the first visit in a file waits for its import.
configure({ asyncUtilTimeout: 4000 });

// jsdom lacks what Radix menus and Recharts measure with, and object URLs for downloads.
// The observer reports one desktop-sized box, as a browser would after layout.
Object.assign(globalThis, {
  ResizeObserver: class {
    readonly callback: ResizeObserverCallback;
    constructor(callback: ResizeObserverCallback) {
      this.callback = callback;
    }
    observe(target: Element) {
      const contentRect = { width: 800, height: 224, top: 0, left: 0, bottom: 224, right: 800, x: 0, y: 0 };
      this.callback([{ target, contentRect } as unknown as ResizeObserverEntry], this);
    }
    unobserve() {}
    disconnect() {}
  },
});
Object.assign(Element.prototype, {
  scrollIntoView: () => undefined,
  hasPointerCapture: () => false,
  releasePointerCapture: () => undefined,
});
Object.assign(URL, { createObjectURL: () => 'blob:test', revokeObjectURL: () => undefined });

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
  // The sidebar remembers its collapsed state here.
  localStorage.clear();
  if (unhandled.length > 0) {
    throw new Error(`Unhandled requests in this test:\n${unhandled.join('\n')}`);
  }
});

afterAll(() => server.close());
