import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  linkSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { basename, join } from 'node:path';

export class DataDirLockedError extends Error {}

/**
 * Who holds the data directory: enough to tell the very process that wrote the lock from any other
 * one that got its pid later (after a reboot, or a crash and pid reuse). `start` is the process's
 * start time in clock ticks since boot (/proc/<pid>/stat, field 22), `boot` the kernel's boot id,
 * `ns` its pid namespace (a container's pids are its own), `token` this lock's own random id.
 */
type Holder = { pid: number; start?: string; boot?: string; ns?: string; cmdline?: string; token?: string };

const LOCK = 'evdra.lock';
/** The holder listens on this socket in the data directory: a process in another container can connect. */
const SOCKET = 'evdra.sock';
/** A socket path longer than this does not fit sockaddr_un (108 bytes with its NUL on Linux). */
const SOCKET_PATH_MAX = 100;
/** A lock this young may not have its socket listening yet. */
const SOCKET_GRACE_MS = 5_000;
/** The holder renews the lock's mtime this often; where /proc cannot show the holder, an older lock is dead. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 30_000;
const heldHere = new Set<string>();

/**
 * PGlite allows one process per data directory. The lock file names its holder so precisely that a
 * lock cannot keep a server from starting once its process is gone, whatever pid it names (a power
 * cut, SIGKILL, OOM kill): a second live process exits with a clear message instead of corrupting
 * the database, and a dead one's lock is taken over. Returns the release.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, LOCK);
  const me = { ...self(), token: randomBytes(12).toString('hex') } satisfies Holder;
  const text = JSON.stringify(me);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createWith(file, text)) {
      heldHere.add(me.token);
      const heartbeat = setInterval(() => touch(file), HEARTBEAT_MS);
      heartbeat.unref();
      const socket = listenForProof(join(dataDir, SOCKET));
      return () => {
        clearInterval(heartbeat);
        socket?.close();
        heldHere.delete(me.token);
        // Only our own lock: after a takeover the file belongs to someone else.
        if (readOrEmpty(file).includes(me.token)) rmSync(file, { force: true });
      };
    }
    const found = readOrEmpty(file);
    const holder = parse(found);
    const age = ageMs(file);
    if (holder && isLive(holder, age, join(dataDir, SOCKET))) {
      const where = holder.ns && holder.ns !== identity().ns ? ' in another container' : '';
      throw new DataDirLockedError(
        `Another Evdra process (pid ${holder.pid}${where}) is using the data directory ${dataDir}. ` +
          'Stop it first, or start this one with a different DATA_DIR.',
      );
    }
    takeOver(file, found, me.token);
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

/** Whether the holder the lock names still runs (and is the very process that wrote it). */
function isLive(holder: Holder, ageMs: number, socket: string): boolean {
  const here = identity();
  const sameView = here.ns !== undefined && (holder.ns === undefined || holder.ns === here.ns);
  // Our own pid: this process's lock (refused: one database per directory), or an earlier process's
  // that had our pid.
  if (holder.pid === process.pid && (holder.ns === undefined || holder.ns === here.ns))
    return holder.token !== undefined && heldHere.has(holder.token);
  if (holder.boot && here.boot && holder.boot !== here.boot) return false; // the machine restarted since
  if (sameView) {
    const proc = readProc(holder.pid);
    if (!proc) return false;
    if (holder.start !== undefined) return proc.start === holder.start && proc.cmdline === holder.cmdline;
    // A lock of an older version (a bare pid): live only if that pid is a Node process.
    return /^node/.test(basename(proc.cmdline.split('\0')[0] ?? ''));
  }
  // Another pid namespace (a container restarted after a kill, or another one on the same volume),
  // or no /proc (macOS): the holder cannot be seen. Its socket answers while it lives; where there
  // is none (a file system without sockets), its heartbeat tells.
  const proof = ageMs < SOCKET_GRACE_MS ? 'unknown' : socketAnswers(socket);
  if (proof !== 'unknown') return proof === 'live';
  return ageMs < STALE_MS && (here.ns !== undefined || pidExists(holder.pid));
}

/**
 * Listens on the data directory's socket (after removing a dead holder's): connecting to it is the
 * proof this process lives, for a process that cannot see it (another container on the same volume).
 */
function listenForProof(path: string): Server | undefined {
  if (path.length > SOCKET_PATH_MAX) return undefined;
  rmSync(path, { force: true }); // we hold the lock: a socket file there is a dead holder's
  const server = createServer((s) => s.end());
  server.on('error', () => {}); // a file system without sockets: the heartbeat stands in
  server.listen(path);
  server.unref();
  return server;
}

/**
 * Whether a process listens on `path`: 'live' (it accepted), 'dead' (a socket file nobody listens
 * on), 'unknown' (no socket there). Asked from a child process, so that locking stays synchronous;
 * only a lock from another pid namespace pays for it.
 */
function socketAnswers(path: string): 'live' | 'dead' | 'unknown' {
  if (path.length > SOCKET_PATH_MAX) return 'unknown';
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const s = require('node:net').connect(process.argv[1]);
       s.on('connect', () => { process.stdout.write('live'); s.destroy(); });
       s.on('error', (e) => process.stdout.write(e.code === 'ECONNREFUSED' ? 'dead' : 'unknown'));`,
      path,
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  const answer = probe.stdout?.trim();
  return answer === 'live' || answer === 'dead' ? answer : 'unknown';
}

/** Removes a dead holder's lock, unless another process replaced it since we read it. */
function takeOver(file: string, judged: string, token: string) {
  const aside = `${file}.${token}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // gone already: the next attempt creates it
  }
  if (readOrEmpty(aside) !== judged) {
    // A live process locked in between: put its lock back.
    try {
      linkSync(aside, file);
    } catch {}
  }
  rmSync(aside, { force: true });
}

/** Creates the lock with its whole text at once (a reader never sees half of it); false when it exists. */
function createWith(file: string, text: string): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, text);
  try {
    linkSync(draft, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: create in place.
    try {
      writeFileSync(file, text, { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    rmSync(draft, { force: true });
  }
}

/** The lock's holder; undefined for an empty or torn file (the power went while it was written). */
function parse(text: string): Holder | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const h = JSON.parse(trimmed) as Holder;
    return Number.isInteger(h?.pid) && h.pid > 0 ? h : undefined;
  } catch {
    return undefined;
  }
}

function self(): Holder {
  const proc = readProc(process.pid);
  const { boot, ns } = identity();
  return { pid: process.pid, start: proc?.start, boot, ns, cmdline: proc?.cmdline };
}

let cachedIdentity: { boot?: string; ns?: string } | undefined;
/** This machine's boot and this process's pid namespace (Linux); empty elsewhere. */
function identity() {
  cachedIdentity ??= {
    boot: readOrEmpty('/proc/sys/kernel/random/boot_id').trim() || undefined,
    ns: readLink('/proc/self/ns/pid'),
  };
  return cachedIdentity;
}

/** A process's start time (ticks since boot) and command line; undefined when no such process runs. */
function readProc(pid: number): { start: string; cmdline: string } | undefined {
  const stat = readOrEmpty(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  if (!start) return undefined;
  return { start, cmdline: readOrEmpty(`/proc/${pid}/cmdline`) };
}

function readLink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function touch(file: string) {
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {}
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
