// `npm run fuzz`: starts the built server on a fresh PGlite data directory (or, with
// FUZZ_DATABASE_URL, a fresh database on that PostgreSQL server), or uses FUZZ_URL if set, then
// sends FUZZ_REQUESTS (10,000) bad requests over HTTP and prints the report. Exits 1 on any 5xx,
// hang, BOLA failure or id-taking operation left untried. FUZZ_SEED repeats a run; FUZZ_PORT (8341) is where it starts the server.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { formatReport, fuzz, type Transport } from './fuzzer.js';

const requests = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const port = Number(process.env.FUZZ_PORT ?? 8341);

async function startServer(): Promise<{ base: string; stop: () => Promise<void> }> {
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
  const main = new URL('../../dist/main.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((r) => child.on('exit', r));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error('the server did not start');
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await dropDb();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Raw HTTP (not fetch): bodies on GET, odd content types and header bytes go out as given. */
function httpTransport(base: string): Transport {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (req) =>
    new Promise((resolve, reject) => {
      const body =
        req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
      const r = request(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.url,
          agent,
          headers: { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              headers: res.headers,
            }),
          );
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end(body);
    });
}

const server = await startServer();
let exitCode = 1;
try {
  const report = await fuzz({
    transport: httpTransport(server.base),
    requests,
    seed,
    progressEvery: 1000,
    progress: (done, r) =>
      process.stderr.write(
        `  ${done} requests: ${Object.entries(r.byClass)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}\n`,
      ),
  });
  process.stdout.write(`${formatReport(report, server.base)}\n`);
  exitCode = report.failures.length || report.bola.some((b) => !b.ok) ? 1 : 0;
} finally {
  await server.stop();
}
process.exit(exitCode);
