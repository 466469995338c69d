import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { DataDirLockedError, lockDataDir } from '../src/db/lock.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'evdra-unit-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts a live process that is not this one and returns its pid. */
function otherProcess(): ChildProcess & { pid: number } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  if (!child.pid) throw new Error('could not start a child process');
  return child as ChildProcess & { pid: number };
}

describe('lockDataDir', () => {
  it('refuses a data directory another live process holds, with a clear message', () => {
    const dir = tempDir();
    const other = otherProcess();
    writeFileSync(join(dir, 'evdra.lock'), String(other.pid));
    let error: unknown;
    try {
      lockDataDir(dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`pid ${other.pid}`);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toMatch(/DATA_DIR/);
    // The other process keeps its lock.
    expect(readFileSync(join(dir, 'evdra.lock'), 'utf8')).toBe(String(other.pid));
  });

  it('takes over a stale lock left by a dead process, and releases it', async () => {
    const dir = tempDir();
    const dead = otherProcess();
    await new Promise((resolve) => {
      dead.once('exit', resolve);
      dead.kill();
    });
    writeFileSync(join(dir, 'evdra.lock'), String(dead.pid));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'evdra.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'evdra.lock'))).toBe(false);
  });

  it('locks a free directory with our pid', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'evdra.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});

describe('loadConfig', () => {
  it('refuses a bad PORT with a message naming PORT', () => {
    const dir = tempDir();
    for (const PORT of ['abc', '70000', '-1', '80.5']) {
      expect(() => loadConfig({ DATA_DIR: dir, PORT })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dir, PORT })).toThrow(/PORT/);
    }
    expect(loadConfig({ DATA_DIR: dir, PORT: '3000' }).port).toBe(3000);
  });

  it('refuses a JWT_SECRET shorter than 32 characters', () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });

  it('without JWT_SECRET, generates one once and reuses it from DATA_DIR', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
    // Another data directory gets its own secret.
    expect(loadConfig({ DATA_DIR: tempDir() }).jwtSecret).not.toBe(first.jwtSecret);
    // An explicit JWT_SECRET wins.
    const explicit = 'e'.repeat(40);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: explicit }).jwtSecret).toBe(explicit);
  });

  it('uses HTTPS-only cookies exactly when PUBLIC_URL is https', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://cars.example.com/' })).toMatchObject({
      publicUrl: 'https://cars.example.com',
      secureCookies: true,
    });
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'http://cars.example.com' }).secureCookies).toBe(false);
  });
});
