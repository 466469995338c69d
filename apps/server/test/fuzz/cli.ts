// `npm run fuzz`: starts the built server on a fresh PGlite data directory (or, with
// FUZZ_DATABASE_URL, a fresh database on that PostgreSQL server), or uses FUZZ_URL if set, then
// sends FUZZ_REQUESTS (10,000) bad requests over HTTP and prints the report. FUZZ_SEED repeats a
// run; FUZZ_PORT (8341) is where it starts the server.
//
// Exit code: 0 when the run found no failure; 1 when it found one (a 5xx, a hang, a connection
// closed without an answer, a BOLA check that failed, an id-taking operation left untried); 2 when
// the run could not be made (bad settings, the server did not start, an unexpected error).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { editorMay } from './editor-writes.js';
import { exitCodeOf, formatReport, fuzz } from './fuzzer.js';
import { httpTransport } from './http-transport.js';

const RUN_ERROR = 2;

/** A whole number from the environment, or the default; undefined when it is set but not one. */
function wholeNumber(name: string, fallback: number | undefined): number | undefined | 'bad' {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return /^\d+$/.test(raw) ? Number(raw) : 'bad';
}

async function startServer(port: number): Promise<{ base: string; stop: () => Promise<void> }> {
  if (process.env.FUZZ_URL) return { base: process.env.FUZZ_URL.replace(/\/$/, ''), stop: async () => {} };
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-fuzz-'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'error',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_FAILURES_PER_15_MIN: '1000000',
  };
  let dropDb = async () => {};
  if (process.env.FUZZ_DATABASE_URL) {
    const name = `evdra_fuzz_${process.pid}`;
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: process.env.FUZZ_DATABASE_URL });
      await c.connect();
      await c.query(sql).finally(() => c.end());
    };
    await admin(`create database ${name}`);
    const url = new URL(process.env.FUZZ_DATABASE_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDb = () => admin(`drop database if exists ${name} with (force)`);
  }
  const cleanUp = async () => {
    await dropDb();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const main = new URL('../../dist/main.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  let gone = false;
  const exited = new Promise<void>((r) =>
    child.on('exit', () => {
      gone = true;
      r();
    }),
  );
  const stop = async () => {
    if (!gone) {
      child.kill('SIGTERM');
      // A request still running on the server (a hang) would hold its graceful stop forever.
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    await cleanUp();
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (gone || i > 600) {
      await stop();
      throw new Error(gone ? 'the server exited while starting' : 'the server did not start within 60 s');
    }
    const up = await fetch(`${base}/api/health`).then(
      async (r) => {
        await r.arrayBuffer(); // read to the end: the connection is free again
        return r.ok;
      },
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, stop };
}

async function main(): Promise<number> {
  const requests = wholeNumber('FUZZ_REQUESTS', 10_000);
  const seed = wholeNumber('FUZZ_SEED', undefined);
  const port = wholeNumber('FUZZ_PORT', 8341);
  for (const [name, value] of [
    ['FUZZ_REQUESTS', requests],
    ['FUZZ_SEED', seed],
    ['FUZZ_PORT', port],
  ] as const)
    if (value === 'bad') {
      process.stderr.write(`fuzz: ${name} must be a whole number, not "${process.env[name]}"\n`);
      return RUN_ERROR;
    }

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(port as number);
  } catch (err) {
    process.stderr.write(`fuzz: ${(err as Error).message}\n`);
    return RUN_ERROR;
  }
  const http = httpTransport(server.base);
  try {
    const report = await fuzz({
      transport: http.transport,
      requests: requests as number,
      seed: seed as number | undefined,
      editorMay,
      skipReasons: {
        'POST /api/webhooks/{id}/deliveries/{deliveryId}/resend':
          "a delivery exists only once an event reached one of the owner's webhooks, which a run over HTTP cannot make (fuzz.test.ts puts one in the database and tries it)",
      },
      progressEvery: 1000,
      progress: (done, r) =>
        process.stderr.write(
          `  ${done} requests: ${Object.entries(r.byClass)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}\n`,
        ),
    });
    process.stdout.write(`${formatReport(report, server.base)}\n`);
    return exitCodeOf(report);
  } catch (err) {
    process.stderr.write(`fuzz: the run could not finish: ${(err as Error).stack ?? String(err)}\n`);
    return RUN_ERROR;
  } finally {
    http.close();
    await server.stop().catch((err) => process.stderr.write(`fuzz: stopping the server: ${err}\n`));
  }
}

// An error nothing handled is a bug of this command, not a finding: say so, and exit 2, not 1.
const unexpected = (err: unknown) => {
  process.stderr.write(`fuzz: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(RUN_ERROR);
};
process.on('unhandledRejection', unexpected);
process.on('uncaughtException', unexpected);
process.exitCode = await main();
// Everything is closed by now; should a handle still hold the process, do not wait for it.
setTimeout(() => process.exit(), 2000).unref();
