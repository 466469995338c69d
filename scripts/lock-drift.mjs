// Compares two package-lock.json files and says whether they differ only in other platforms'
// optional binaries (e.g. @rollup/rollup-darwin-x64), which a registry may or may not serve.
// Such drift must not fail CI; any other difference means the lock and package.json disagree.
//
//   node scripts/lock-drift.mjs OLD_LOCK NEW_LOCK   → exit 0 if equal or only that drift, 1 otherwise
import { readFileSync } from 'node:fs';

/** True when an entry is an optional binary this machine would never install. */
export function isForeignOptional(
  entry,
  platform = process.platform,
  arch = process.arch,
  libc = currentLibc(),
) {
  if (!entry?.optional) return false;
  return !matches(entry.os, platform) || !matches(entry.cpu, arch) || !matches(entry.libc, libc);
}

function currentLibc() {
  return process.report?.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl';
}

/** npm's os/cpu rule: a list of allowed values, or of `!value` exclusions. */
function matches(list, value) {
  if (!Array.isArray(list) || list.includes(`!${value}`)) return !Array.isArray(list);
  const allowed = list.filter((v) => !v.startsWith('!'));
  return allowed.length === 0 || allowed.includes(value);
}

/** The package paths whose entries differ between two locks, split by whether the drift is harmless. */
export function lockDrift(oldLock, newLock, platform, arch, libc) {
  const before = oldLock.packages ?? {};
  const after = newLock.packages ?? {};
  const harmless = [];
  const real = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    const entry = after[key] ?? before[key];
    const addedOrRemoved = !before[key] || !after[key];
    (addedOrRemoved && isForeignOptional(entry, platform, arch, libc) ? harmless : real).push(key);
  }
  const { packages: _a, ...restBefore } = oldLock;
  const { packages: _b, ...restAfter } = newLock;
  if (JSON.stringify(restBefore) !== JSON.stringify(restAfter)) real.push('(lock header)');
  return { harmless, real };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [oldPath, newPath] = process.argv.slice(2);
  const read = (p) => JSON.parse(readFileSync(p, 'utf8'));
  const { harmless, real } = lockDrift(read(oldPath), read(newPath));
  if (harmless.length) {
    console.log(
      `lock: ${harmless.length} optional binaries of other platforms differ (ignored), e.g. ${harmless[0]}`,
    );
  }
  if (real.length) {
    console.error(`lock: package-lock.json and package.json disagree on ${real.length} entries, e.g.:`);
    for (const key of real.slice(0, 10)) console.error(`  ${key}`);
    console.error('Run `npm install` and commit package-lock.json.');
    process.exit(1);
  }
}
