import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';

/**
 * Faults tried as a power cut and an outage would, against the real server process: the test suite
 * (faults-*.test.ts) and `npm run bench:faults` run the same scenarios and judge the same counts.
 */

/** How the server process is started: through tsx from the sources (tests) or the build (bench). */
export type Entry = { nodeArgs: string[]; script: string };
export const sourceEntry: Entry = {
  nodeArgs: ['--import', 'tsx'],
  script: new URL('../../src/main.ts', import.meta.url).pathname,
};
export const builtEntry: Entry = {
  nodeArgs: [],
  script: new URL('../../dist/main.js', import.meta.url).pathname,
};

/** A request with no answer after this long counts as hung (the server's own limit is 5 s to connect). */
export const HANG_MS = 10_000;

export const freePort = () => 21000 + Math.floor(Math.random() * 20000);

export type ServerProcess = {
  child: ChildProcess;
  base: string;
  exit: Promise<number | null>;
  stderr: () => string;
};

export function startServer(entry: Entry, env: Record<string, string>, port = freePort()): ServerProcess {
  const child = spawn(process.execPath, [...entry.nodeArgs, entry.script], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      PUSH_POLL_MS: '0',
      ...env,
    },
    stdio: ['ignore', process.env.FAULTS_DEBUG ? 'inherit' : 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, base: `http://127.0.0.1:${port}`, exit, stderr: () => stderr };
}

/** Resolves with the milliseconds until /api/health answers 200; throws if the process exits first. */
export async function untilServing(server: ServerProcess, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  let exited: number | null | undefined;
  server.exit.then((code) => {
    exited = code;
  });
  while (Date.now() - started < timeoutMs) {
    if (exited !== undefined)
      throw new Error(`server exited (${exited}) before serving:\n${server.stderr()}`);
    const ok = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return Date.now() - started;
    await sleep(25);
  }
  throw new Error(`server did not serve within ${timeoutMs} ms:\n${server.stderr()}`);
}

export async function kill(server: ServerProcess, signal: NodeJS.Signals = 'SIGKILL') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exit;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A browser's session: its cookies and CSRF token, sent to any server base (they survive restarts). */
export type Session = { headers: Record<string, string>; vehicleId: number };

export async function newSession(base: string, name: string): Promise<Session> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: name,
      email: `${name}@faults.test`,
      password: 'correct horse 1',
      gdprConsent: true,
    }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
  const car = await fetch(`${base}/api/vehicles`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'DIESEL',
      registrationNumber: `F-${name.slice(-6)}`,
      engineSize: 1.5,
      odometer: 50_000,
    }),
  });
  if (car.status !== 201) throw new Error(`vehicle failed: ${car.status} ${await car.text()}`);
  return { headers, vehicleId: ((await car.json()) as { id: number }).id };
}

/** What the writers saw: ids of acknowledged writes, answers by status, answers that never came, latencies. */
export type WriteTally = {
  acked: number[];
  byStatus: Record<string, number>;
  hangs: number;
  /** 503 answers without Retry-After or without the shared error shape {code: UNAVAILABLE, message}. */
  badUnavailable: number;
  /** Connection refused or reset by the server itself (a SIGKILLed process, not counted as hung). */
  noAnswer: number;
  latenciesMs: number[];
  /** [sentAt, status] of every answer, for timelines (time to recover). */
  answers: [number, number][];
};

/**
 * `writers` loops that each add expenses one after another (as fast as answers come) until `stop`
 * resolves; a write counts as acknowledged only on 201 with its id.
 */
export async function runWriters(
  base: () => string,
  session: Session,
  writers: number,
  stop: Promise<unknown>,
  tag: string,
  onAck: () => void = () => {},
): Promise<WriteTally> {
  const tally: WriteTally = {
    acked: [],
    byStatus: {},
    hangs: 0,
    badUnavailable: 0,
    noAnswer: 0,
    latenciesMs: [],
    answers: [],
  };
  let stopped = false;
  stop.then(() => {
    stopped = true;
  });
  const loop = async (w: number) => {
    for (let n = 0; !stopped; n++) {
      const sent = Date.now();
      try {
        const res = await fetch(`${base()}/api/expenses`, {
          method: 'POST',
          headers: session.headers,
          body: JSON.stringify({
            vehicleId: session.vehicleId,
            date: '2026-03-01',
            expenseType: 'Parking',
            amount: 1 + (n % 50),
            description: `${tag}-w${w}-${n}`,
          }),
          signal: AbortSignal.timeout(HANG_MS),
        });
        const body = (await res.json().catch(() => ({}))) as { id?: number; code?: string; message?: string };
        tally.latenciesMs.push(Date.now() - sent);
        tally.answers.push([sent, res.status]);
        tally.byStatus[res.status] = (tally.byStatus[res.status] ?? 0) + 1;
        if (res.status === 201 && typeof body.id === 'number') {
          tally.acked.push(body.id);
          onAck();
        }
        if (
          res.status === 503 &&
          !(res.headers.get('retry-after') && body.code === 'UNAVAILABLE' && typeof body.message === 'string')
        )
          tally.badUnavailable += 1;
        if (res.status !== 201) await sleep(20);
      } catch (err) {
        if ((err as Error).name === 'TimeoutError') tally.hangs += 1;
        else tally.noAnswer += 1;
        await sleep(20);
      }
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, w) => loop(w)));
  return tally;
}

/** Ids of the session's expenses the server has now (its own list, as the user sees it). */
export async function presentIds(base: string, session: Session): Promise<Set<number>> {
  const res = await fetch(`${base}/api/expenses/vehicle/${session.vehicleId}`, { headers: session.headers });
  if (!res.ok) throw new Error(`list failed: ${res.status}`);
  return new Set(((await res.json()) as { id: number }[]).map((e) => e.id));
}

export type KillRound = {
  acked: number;
  /** Acknowledged writes (this round's and every earlier one's) missing after the restart. */
  missing: number;
  /** Who the leftover lock named when the server started again. */
  lockNamed: 'the killed server' | 'a live process that is not Evdra';
  /** Milliseconds from the restart until /api/health answered. */
  reopenMs: number;
  status: Record<string, number>;
};

/**
 * The embedded database under a power cut: `rounds` times, `writers` concurrent writers add expenses,
 * the server is SIGKILLed mid-write, started again on the same DATA_DIR (every other round with the
 * lock rewritten to name `sleep`, a live process that is not Evdra, as after a reboot), and every
 * acknowledged write so far is looked for.
 */
export async function pgliteKillRounds(o: {
  entry: Entry;
  dataDir: string;
  rounds: number;
  writers: number;
  /** The kill comes this many acknowledged writes into a round, then 0-250 ms later (mid-write). */
  killAfterAcks: number;
  log?: (round: KillRound, i: number) => void;
  /** Milliseconds a start after a clean stop took, before the rounds. */
  onBaseline?: (ms: number) => void;
}): Promise<KillRound[]> {
  const env = { DATA_DIR: o.dataDir };
  let server = startServer(o.entry, env);
  await untilServing(server);
  const session = await newSession(server.base, `kill${Date.now().toString(36)}`);
  // The baseline on this machine now: a start after a clean stop (SIGTERM) on the same directory.
  if (o.onBaseline) {
    await kill(server, 'SIGTERM');
    server = startServer(o.entry, env);
    o.onBaseline(await untilServing(server));
  }
  const ackedSoFar: number[] = [];
  const results: KillRound[] = [];
  const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
  try {
    for (let i = 0; i < o.rounds; i++) {
      const current = server;
      let acks = 0;
      let enough!: () => void;
      const killed = new Promise<void>((resolve) => {
        enough = resolve;
      }).then(async () => {
        await sleep(Math.random() * 250);
        await kill(current);
      });
      const tally = await runWriters(
        () => current.base,
        session,
        o.writers,
        killed,
        `r${i}`,
        () => {
          if (++acks === o.killAfterAcks) enough();
        },
      );
      ackedSoFar.push(...tally.acked);
      const lockNamed = i % 2 === 1 ? 'a live process that is not Evdra' : 'the killed server';
      if (lockNamed !== 'the killed server') nameInLock(o.dataDir, sleeper.pid as number);
      server = startServer(o.entry, env);
      const reopenMs = await untilServing(server);
      const present = await presentIds(server.base, session);
      const round: KillRound = {
        acked: tally.acked.length,
        missing: ackedSoFar.filter((id) => !present.has(id)).length,
        lockNamed,
        reopenMs,
        status: tally.byStatus,
      };
      results.push(round);
      o.log?.(round, i);
    }
  } finally {
    sleeper.kill();
    await kill(server, 'SIGTERM');
  }
  return results;
}

/** Rewrites the data directory's lock to name `pid` (as when the pid is reused after a reboot). */
function nameInLock(dataDir: string, pid: number) {
  const file = join(dataDir, 'evdra.lock');
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, /^\s*\{/.test(text) ? JSON.stringify({ ...JSON.parse(text), pid }) : String(pid));
}

/**
 * A TCP proxy on loopback in front of PostgreSQL: `cut()` is the database going away (every open
 * connection reset, new ones refused), `restore()` its return on the same port.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      // A connection accepted just before a cut and handed over after it: the database is away.
      if (this.server !== server) {
        client.destroy();
        return;
      }
      const upstream = tcpConnect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** The database goes away: connections reset, new ones refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }

  restore = () => this.open();

  close = () => this.cut();
}

export type OutageReport = {
  cuts: number;
  /** Writes answered before the first cut, while the database was away, and after it returned, by status. */
  before: Record<string, number>;
  during: Record<string, number>;
  after: Record<string, number>;
  hangs: number;
  badUnavailable: number;
  /** Slowest answer to a write sent while the database was away (ms). */
  slowestDuringMs: number;
  readyDuring: Record<string, number>;
  /** The longest wait, over the cuts, from the database's return until a write succeeded / ready said 200 (ms). */
  writeRecoverMs: number;
  readyRecoverMs: number;
  acked: number;
  missing: number;
};

/**
 * PostgreSQL goes away under load: `writers` write through a server whose DATABASE_URL goes through
 * a proxy; `cuts` times, the proxy is cut for `outageMs`, then restored. Counts what every write got
 * (201, 503, 500, no answer), what /api/health/ready said, how fast writes came back each time, and
 * which acknowledged writes are missing. Several cuts: an outage must not leave anything behind
 * (a connection slot lost per cut would soon leave the pool empty).
 */
export async function postgresOutage(o: {
  entry: Entry;
  databaseUrl: string;
  dataDir: string;
  writers: number;
  outageMs: number;
  cuts: number;
}): Promise<OutageReport> {
  const target = new URL(o.databaseUrl);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.open();
  const viaProxy = new URL(o.databaseUrl);
  viaProxy.port = String(proxy.port);
  const server = startServer(o.entry, { DATA_DIR: o.dataDir, DATABASE_URL: viaProxy.toString() });
  try {
    await untilServing(server);
    const session = await newSession(server.base, `out${Date.now().toString(36)}`);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const writing = runWriters(() => server.base, session, o.writers, finished, 'pg');
    const outages: [number, number][] = [];
    const readyDuring: Record<string, number> = {};
    let readyRecoverMs = 0;
    for (let c = 0; c < o.cuts; c++) {
      await sleep(1_000);
      const cutAt = Date.now();
      await proxy.cut();
      while (Date.now() - cutAt < o.outageMs) {
        const status = await readyStatus(server.base);
        readyDuring[status] = (readyDuring[status] ?? 0) + 1;
        await sleep(200);
      }
      // Writes sent from here on count as after the outage, even the few before the port is open again.
      const restoredAt = Date.now();
      await proxy.restore();
      outages.push([cutAt, restoredAt]);
      let ready = -1;
      while (Date.now() - restoredAt < 30_000) {
        if ((await readyStatus(server.base)) === '200') {
          ready = Date.now() - restoredAt;
          break;
        }
        await sleep(50);
      }
      readyRecoverMs = ready < 0 || readyRecoverMs < 0 ? -1 : Math.max(readyRecoverMs, ready);
    }
    await sleep(1_500);
    finish();
    const tally = await writing;
    const answers = tally.answers.map(([sent, status], i) => ({
      sent,
      status,
      answered: sent + (tally.latenciesMs[i] ?? 0),
    }));
    // Strictly after the cut: a write sent in the same millisecond may have been sent before it.
    const away = (at: number) => outages.some(([from, to]) => at > from && at < to);
    const firstCut = outages[0]?.[0] ?? Number.POSITIVE_INFINITY;
    const count = (keep: (a: (typeof answers)[number]) => boolean) => {
      const counts: Record<string, number> = {};
      for (const a of answers) if (keep(a)) counts[a.status] = (counts[a.status] ?? 0) + 1;
      return counts;
    };
    // Per cut, the first write answered 201 once the database was back (it may have been sent just before).
    const recoveries = outages.map(([, restoredAt]) => {
      const ok = answers.filter((a) => a.status === 201 && a.answered >= restoredAt).map((a) => a.answered);
      return ok.length ? Math.min(...ok) - restoredAt : -1;
    });
    const present = await presentIds(server.base, session);
    return {
      cuts: outages.length,
      before: count((a) => a.sent < firstCut),
      // Sent and answered while the database was away; one answered after its return counts as after.
      during: count((a) => away(a.sent) && away(a.answered)),
      after: count((a) => a.sent >= firstCut && !(away(a.sent) && away(a.answered))),
      hangs: tally.hangs,
      badUnavailable: tally.badUnavailable,
      slowestDuringMs: Math.max(0, ...answers.filter((a) => away(a.sent)).map((a) => a.answered - a.sent)),
      readyDuring,
      writeRecoverMs: recoveries.includes(-1) ? -1 : Math.max(...recoveries),
      readyRecoverMs,
      acked: tally.acked.length,
      missing: tally.acked.filter((id) => !present.has(id)).length,
    };
  } finally {
    await kill(server, 'SIGTERM');
    await proxy.close();
  }
}

async function readyStatus(base: string): Promise<string> {
  return fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(HANG_MS) }).then(
    (r) => String(r.status),
    (err) => ((err as Error).name === 'TimeoutError' ? 'hung' : 'no answer'),
  );
}
