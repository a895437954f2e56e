/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

import { appRoutePaths } from './src/config/paths';

const apiTarget = process.env.VITE_API_PROXY_TARGET ?? 'http://127.0.0.1:8080';

/** Writes `routes.json`: the server answers addresses outside it (and `/api`) with HTTP 404. */
const routeList = (): Plugin => ({
  name: 'prospector-route-list',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify(appRoutePaths()) });
  },
});

export default defineConfig({
  plugins: [react(), tailwindcss(), routeList()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/metrics': { target: apiTarget, changeOrigin: false },
      '/healthz': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // Whole-screen tests take 1–3 s alone and several times that while a build shares the two cores.
    testTimeout: 15_000,
  },
});
