import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedConnectionVerdict, SERVER_BODY_LIMIT } from './fuzz/fuzzer.js';
import { createTestApp, type TestApp } from './helpers/app.js';

// `npm run fuzz` itself (fuzz/cli.ts, as the README documents it), run as a command against the real
// app listening on loopback (FUZZ_URL): its exit code and its summary say what the run found. A
// short run (FUZZ_REQUESTS); the test suite's long pass is fuzz.test.ts. PGlite project only.
const runs = process.env.EVDRA_TEST_DB !== 'postgres' || process.env.FUZZ_ON_POSTGRES === '1';
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const cli = fileURLToPath(new URL('./fuzz/cli.ts', import.meta.url));

type Run = { code: number | null; stdout: string; stderr: string };
function runCli(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli], {
      cwd: repoRoot,
      env: { ...process.env, FUZZ_SEED: process.env.FUZZ_SEED ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

let t: TestApp;
let appUrl: string;
/** The app behind a proxy that breaks one operation: every vehicle delete answers 500. */
let faulty: Server;
let faultyUrl: string;

beforeAll(async () => {
  if (!runs) return;
  t = await createTestApp({ LOGIN_FAILURES_PER_15_MIN: '1000000', AUTH_RATE_LIMIT_PER_MINUTE: '1000000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  appUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  faulty = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      if (req.method === 'DELETE' && /^\/api\/vehicles\/\d+$/.test(req.url ?? '')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'INTERNAL', message: 'Injected failure.' }));
        return;
      }
      const answer = await t.app.inject({
        method: req.method as 'GET',
        url: req.url ?? '/',
        headers: req.headers as IncomingHttpHeaders,
        payload: Buffer.concat(chunks),
      });
      const { 'transfer-encoding': _te, connection: _c, 'keep-alive': _k, ...headers } = answer.headers;
      res.writeHead(answer.statusCode, { ...headers, 'content-length': answer.rawPayload.length });
      res.end(answer.rawPayload);
    });
  });
  await new Promise<void>((r) => faulty.listen(0, '127.0.0.1', r));
  faultyUrl = `http://127.0.0.1:${(faulty.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (faulty) await new Promise((r) => faulty.close(r));
  await t?.close();
});

describe.runIf(runs)('npm run fuzz (the command)', () => {
  it('passes with exit code 0 on the app as it is: the editor’s own writes are not failures', async () => {
    const run = await runCli({ FUZZ_URL: appUrl, FUZZ_REQUESTS: '150' });
    const report = `${run.stdout}\n${run.stderr}`;
    expect(run.code, report).toBe(0);
    expect(lastLine(run.stdout), report).toMatch(/^PASS: 150 requests, \d+ BOLA checks, no failure\.$/);
    expect(run.stdout).toContain('5xx: 0, hangs: 0, closed without an answer: 0');
    expect(run.stdout).not.toMatch(/^\s+FAIL /m);
    // The editor's allowed writes are not sent as the editor; the viewer is still refused them.
    expect(run.stdout).not.toContain('POST /api/expenses (as editor)');
    expect(run.stdout).toMatch(/ok {3}40[34] {2}POST \/api\/expenses \(as viewer\)/);
    expect(run.stdout).toMatch(/ok {3}40[34] {2}PUT \/api\/vehicles\/\{id\} \(as editor\)/);
    // Nothing left unhandled at the end.
    expect(run.stderr).not.toMatch(/ECONNRESET|EPIPE|unexpected error|Unhandled/i);
  }, 120_000);

  it('exits 1 and names the failure when the server has one', async () => {
    const run = await runCli({ FUZZ_URL: faultyUrl, FUZZ_REQUESTS: '20' });
    const report = `${run.stdout}\n${run.stderr}`;
    expect(run.code, report).toBe(1);
    expect(run.stdout).toMatch(/FAIL 500 {2}DELETE \/api\/vehicles\/\{id\} {2}\(answered 500\)/);
    expect(lastLine(run.stdout)).toMatch(/^FAIL: .*BOLA matrix failure/);
    expect(run.stderr).not.toMatch(/unexpected error|could not finish/);
  }, 120_000);

  it('exits 2, not 1, when the run cannot be made', async () => {
    const bad = await runCli({ FUZZ_URL: appUrl, FUZZ_REQUESTS: 'lots' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('FUZZ_REQUESTS must be a whole number, not "lots"');
    expect(bad.stdout).toBe('');
    // Nothing listens there: the run stops at its first request, it finds nothing.
    const closed = await new Promise<number>((r) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => r(port));
      });
    });
    const unreachable = await runCli({ FUZZ_URL: `http://127.0.0.1:${closed}`, FUZZ_REQUESTS: '10' });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/could not finish: .*ECONNREFUSED/s);
  }, 60_000);
});

describe('a connection closed without an answer', () => {
  it('is the server refusing a body over its limit, a dropped request under it, and the end when refused', () => {
    const over = SERVER_BODY_LIMIT + 1;
    // Answering 413 then closing, before the client has written a body over the limit: a refusal.
    expect(closedConnectionVerdict('EPIPE', 5 * SERVER_BODY_LIMIT)).toBe('refused');
    expect(closedConnectionVerdict('ECONNRESET', over)).toBe('refused');
    // The same on a body within the limit, or for any other reason: the server dropped a request.
    expect(closedConnectionVerdict('ECONNRESET', SERVER_BODY_LIMIT)).toBe('failure');
    expect(closedConnectionVerdict('ECONNRESET', 0)).toBe('failure');
    expect(closedConnectionVerdict('ETIMEDOUT', over)).toBe('failure');
    expect(closedConnectionVerdict(undefined, over)).toBe('failure');
    expect(closedConnectionVerdict('ECONNREFUSED', 0)).toBe('server gone');
  });
});
