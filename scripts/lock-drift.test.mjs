import { describe, expect, it } from 'vitest';
import { isForeignOptional, lockDrift } from './lock-drift.mjs';

const lock = (packages) => ({ name: 'evdra', lockfileVersion: 3, requires: true, packages });
const base = {
  '': { name: 'evdra' },
  'node_modules/zod': { version: '4.1.0' },
  'node_modules/@rollup/rollup-linux-x64-gnu': {
    version: '4.0.0',
    optional: true,
    os: ['linux'],
    cpu: ['x64'],
    libc: ['glibc'],
  },
};
const darwin = { version: '4.0.0', optional: true, os: ['darwin'], cpu: ['x64'] };
const musl = { version: '4.0.0', optional: true, os: ['linux'], cpu: ['x64'], libc: ['musl'] };

describe('lock drift check in .ci/run', () => {
  it("ignores other platforms' optional binaries the registry may or may not list", () => {
    const after = lock({
      ...base,
      'node_modules/@rollup/rollup-darwin-x64': darwin,
      'node_modules/@rollup/rollup-linux-x64-musl': musl,
    });
    const drift = lockDrift(lock(base), after, 'linux', 'x64', 'glibc');
    expect(drift.real).toEqual([]);
    expect(drift.harmless).toEqual([
      'node_modules/@rollup/rollup-darwin-x64',
      'node_modules/@rollup/rollup-linux-x64-musl',
    ]);
  });

  it("fails on a changed version, a new dependency or this platform's own binary", () => {
    const after = lock({
      ...base,
      'node_modules/zod': { version: '4.2.0' },
      'node_modules/left-pad': { version: '1.3.0' },
    });
    delete after.packages['node_modules/@rollup/rollup-linux-x64-gnu'];
    expect(lockDrift(lock(base), after, 'linux', 'x64', 'glibc').real).toEqual([
      'node_modules/zod',
      'node_modules/@rollup/rollup-linux-x64-gnu',
      'node_modules/left-pad',
    ]);
  });

  it("reads npm's os/cpu rules, negations included", () => {
    expect(isForeignOptional({ optional: true, os: ['!win32'] }, 'linux', 'x64', 'glibc')).toBe(false);
    expect(isForeignOptional({ optional: true, os: ['!linux'] }, 'linux', 'x64', 'glibc')).toBe(true);
    expect(isForeignOptional({ optional: true, cpu: ['arm64'] }, 'linux', 'x64', 'glibc')).toBe(true);
    expect(isForeignOptional({ os: ['darwin'] }, 'linux', 'x64', 'glibc')).toBe(false);
  });
});
