import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kill, pgliteKillRounds, sourceEntry, startServer, untilServing } from './helpers/faults.js';

// The embedded database under a power cut: the real server process, SIGKILLed under concurrent
// writes and started again on its data directory. PGlite only, so it runs in the PGlite project.
const runs = process.env.EVDRA_TEST_DB !== 'postgres';
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'evdra-faults-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.runIf(runs)('embedded database under a power cut', () => {
  it('loses no acknowledged write to SIGKILL under 4 writers, and opens again whatever pid the lock names', async () => {
    const rounds = await pgliteKillRounds({
      entry: sourceEntry,
      dataDir: tempDir(),
      rounds: 3,
      writers: 4,
      killAfterAcks: 40,
    });
    expect(rounds).toHaveLength(3);
    for (const round of rounds) {
      expect(round.acked).toBeGreaterThanOrEqual(40);
      expect(round.missing).toBe(0);
      // Writers only ever got a 201 (or no answer once the process was gone): never an error page.
      expect(Object.keys(round.status)).toEqual(['201']);
    }
    expect(rounds.map((r) => r.lockNamed)).toContain('a live process that is not Evdra');
  }, 300_000);

  it('starts on a directory whose lock (as an older version wrote it) names a live process that is not Evdra', async () => {
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      const dir = tempDir();
      writeFileSync(join(dir, 'evdra.lock'), String(sleeper.pid));
      const server = startServer(sourceEntry, { DATA_DIR: dir });
      await untilServing(server);
      expect((await fetch(`${server.base}/api/health/ready`)).status).toBe(200);
      await kill(server, 'SIGTERM');
      expect(await server.exit).toBe(0);
      expect(sleeper.exitCode).toBe(null);
    } finally {
      sleeper.kill();
    }
  }, 60_000);
  // A second live server on the same directory is still refused: process.test.ts.
});
