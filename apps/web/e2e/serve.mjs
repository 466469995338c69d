// Starts the built server on a fresh data directory: empty, so every e2e run begins with no accounts,
// or (E2E_SEED=demo) holding the demo data, whose reminders the scan at start turns into notifications.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'evdra-e2e-'));
process.env.LOG_LEVEL ??= 'warn';
process.env.HOST ??= '127.0.0.1';
// No fetch of the ECB's exchange rates (loopback only in tests).
process.env.FX_RATES_URL ??= '';
process.env.PUBLIC_URL ??= `http://127.0.0.1:${process.env.PORT ?? 8181}`;
if (process.env.E2E_SEED === 'demo') {
  execFileSync(process.execPath, [new URL('../../server/dist/seed.js', import.meta.url).pathname], {
    stdio: 'ignore',
  });
}
// A killed Playwright run leaves its web servers behind (they have a process group of their own),
// holding their ports, and the next run cannot start: each ends once the run that started it is gone.
const runner = Number(process.env.E2E_RUNNER_PID);
if (runner) {
  const runnerGone = () => {
    try {
      process.kill(runner, 0);
      return false;
    } catch (e) {
      return e.code === 'ESRCH';
    }
  };
  setInterval(() => runnerGone() && process.exit(0), 2000).unref();
}
await import('../../server/dist/main.js');
