// Starts the built server (apps/server/dist/main.js) for a benchmark on a fixed port and a fresh
// data directory; waits up to 3 minutes for /api/health (a busy machine migrates PGlite slowly).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function startBenchServer(port, extraEnv = {}) {
  const base = `http://127.0.0.1:${port}`;
  const taken = await fetch(`${base}/api/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is already in use: stop that server first`);
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-'));
  // BENCH_SERVER_MAIN: another build of the server (e.g. an older copy kept for a before/after run).
  const main =
    process.env.BENCH_SERVER_MAIN ?? new URL('../apps/server/dist/main.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [main], {
    env: {
      // No fetch of the ECB's exchange rates unless asked (FX_RATES_URL set): loopback only.
      FX_RATES_URL: '',
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.on('exit', r));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited at start');
    if (Date.now() - started > 180_000) {
      // Never leave a server behind: it would hold the port for the next run.
      await stop();
      throw new Error(`the server did not answer ${base}/api/health within 3 minutes`);
    }
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, stop };
}
