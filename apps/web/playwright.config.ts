import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8181);
/** A second server whose database holds the demo data (`npm run seed:demo`): for flows that need history. */
export const DEMO_PORT = PORT + 1;

/** End-to-end flows in Debian's Chromium (never a downloaded browser) against the built server. */
export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // One retry in CI, where a test that only passes on its retry is reported as flaky (npm test prints
  // it by name): a machine whose speed varies 2-3x must not turn one slow moment into a lost stop.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // E2E_DEMO=0 skips the demo server (seeding is slow) when running specs that do not use it.
  webServer: [
    { port: PORT, env: { PORT: String(PORT) } as Record<string, string> },
    ...(process.env.E2E_DEMO === '0'
      ? []
      : [{ port: DEMO_PORT, env: { PORT: String(DEMO_PORT), E2E_SEED: 'demo' } }]),
  ].map(({ port, env }) => ({
    command: 'node apps/web/e2e/serve.mjs',
    cwd: '../..',
    url: `http://127.0.0.1:${port}/api/health`,
    // The server ends by itself when this run does (serve.mjs), even when the run is killed.
    env: { ...env, E2E_RUNNER_PID: String(process.pid) },
    // Seeding the demo server takes a while on a busy machine.
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
});
