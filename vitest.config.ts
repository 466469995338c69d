import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * API integration tests run on PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
 * A server test that opens no database is named `*.unit.test.ts` and runs once, in `server`.
 */
const apiProject = (name: string, db: 'pglite' | 'postgres'): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: 'apps/server',
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.unit.test.ts'],
    environment: 'node',
    // FX_RATES_URL empty: no server a test starts (in process or spawned) fetches the ECB's rates.
    env: { EVDRA_TEST_DB: db, FX_RATES_URL: '' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    reporters: ['default'],
    // Vitest's default is one worker less than the cores: one on a 2-core machine, which leaves a core
    // idle while a test waits on PostgreSQL or a spawned server.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      { test: { name: 'scripts', root: 'scripts', include: ['*.test.mjs'], environment: 'node' } },
      {
        plugins: [react()],
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
        },
      },
      {
        // The server's render of the web app's pages (src/ssr.tsx): Node, no DOM, no browser stubs.
        plugins: [react()],
        test: { name: 'web-ssr', root: 'apps/web', include: ['src/**/*.node-test.tsx'], environment: 'node' },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['test/**/*.unit.test.ts'],
          environment: 'node',
          env: { FX_RATES_URL: '' },
          testTimeout: 30_000,
        },
      },
      apiProject('api-pglite', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [apiProject('api-postgres', 'postgres')] : []),
    ],
  },
});
