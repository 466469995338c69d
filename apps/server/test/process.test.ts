import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real server process (src/main.ts through tsx) on a PGlite data directory.
const main = new URL('../src/main.ts', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'evdra-process-'));
const port = 21000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;

function start(extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

async function healthy() {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy');
}

const runs = process.env.EVDRA_TEST_DB !== 'postgres';
let server: ReturnType<typeof start>;
beforeAll(async () => {
  if (!runs) return;
  server = start();
  await healthy();
}, 60_000);
afterAll(() => {
  (server?.child as ChildProcess | undefined)?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

// The process under test uses PGlite, so it runs once, in the PGlite project.
describe.runIf(runs)('server process', () => {
  it('refuses a second process on the same data directory with a clear message', async () => {
    const second = start({ PORT: String(port + 1) });
    expect(await second.exit).toBe(1);
    expect(second.stderr()).toContain('Another Evdra process');
    expect(second.stderr()).toContain(dataDir);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  }, 30_000);

  it('on SIGTERM finishes the request in flight, closes the database and exits 0', async () => {
    // Registering hashes a password (argon2), so it is still running when the signal arrives.
    const inFlight = fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'last_one',
        email: 'last@example.com',
        password: 'correct horse 1',
        gdprConsent: true,
      }),
    });
    await new Promise((r) => setTimeout(r, 15));
    server.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(201);
    expect(await server.exit).toBe(0);
    expect(existsSync(join(dataDir, 'evdra.lock'))).toBe(false);
    // New connections are refused once it is down.
    expect(
      await fetch(`${base}/api/health`).then(
        () => 'up',
        () => 'down',
      ),
    ).toBe('down');
  }, 30_000);
});
