// `npm test`: lint, typecheck, import boundaries, unit + API integration (PGlite, and PostgreSQL when TEST_DATABASE_URL
// is set), then end-to-end in Chromium against the built server. Every step runs even if one fails;
// the last line totals the tests of all suites as `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reports = join(root, 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0 };
const failedSteps = [];
// Named again just above the last line: CI keeps only the tail of the output.
const failedTests = [];
const flakyTests = [];

function run(name, command, args, env = {}) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const res = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = res.status === 0;
  console.log(`${ok ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) failedSteps.push(name);
  return ok;
}

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const bin = (name) => join(root, 'node_modules', '.bin', name);

// Lint and typecheck are not test suites; a failure still counts once so the total can't read green.
if (!run('lint (biome)', bin('biome'), ['check', '.'])) totals.failed += 1;
if (!run('typecheck (tsc)', 'npm', ['run', '--silent', 'typecheck'])) totals.failed += 1;
if (!run('boundaries (dependency-cruiser)', 'node', ['scripts/boundaries.mjs'])) totals.failed += 1;

const vitestJson = join(reports, 'vitest.json');
const vitestOk = run('unit, component and API integration tests (vitest)', bin('vitest'), [
  'run',
  // As Playwright's retries: a test that fails once and then passes is named as flaky below, not hidden.
  '--retry=1',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
const vitest = readJson(vitestJson);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  const failures = vitestFailures(vitest);
  // A file that failed outside its tests (its set-up) has them skipped, not failed: it counts once.
  totals.failed += Math.max(vitest.numFailedTests, failures.length);
  failedTests.push(...failures);
  flakyTests.push(...vitestFlaky(vitest));
} else if (!vitestOk) totals.failed += 1;

if (run('build (web app and server)', 'npm', ['run', '--silent', 'build'])) {
  const pwJson = join(reports, 'playwright.json');
  const e2eOk = run(
    'end-to-end tests (playwright, chromium)',
    bin('playwright'),
    ['test', '-c', 'apps/web/playwright.config.ts'],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
    },
  );
  const pw = readJson(pwJson);
  if (pw) {
    totals.passed += pw.stats.expected + pw.stats.flaky;
    // A run that failed before any test (its web server's port taken, a config error) counts once.
    totals.failed += Math.max(pw.stats.unexpected, e2eOk ? 0 : 1);
    failedTests.push(...playwrightTests(pw, 'unexpected'));
    for (const error of pw.errors ?? []) failedTests.push(`playwright: ${firstLine(error.message)}`);
    flakyTests.push(...playwrightTests(pw, 'flaky'));
  } else if (!e2eOk) totals.failed += 1;
} else totals.failed += 1;

/** The failed vitest tests: file, title and the first line of the first failure. */
function vitestFailures(report) {
  const failures = [];
  for (const file of report.testResults ?? []) {
    const path = file.name.replace(root, '');
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    // A file that fails outside any test (import error, crashed worker) has no failed test.
    if (!failed.length && file.status === 'failed') failures.push(`${path}: ${firstLine(file.message)}`);
    for (const t of failed) failures.push(`${path} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  }
  return failures;
}

/** The vitest tests that passed on their retry: they carry the failure of the first try. */
function vitestFlaky(report) {
  return (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((t) => t.status === 'passed' && t.failureMessages?.length)
      .map((t) => `${file.name.replace(root, '')} › ${t.fullName}: ${firstLine(t.failureMessages[0])}`),
  );
}

function firstLine(text) {
  return (text ?? '').split('\n').find((line) => line.trim()) ?? '';
}

/** The titles of the tests Playwright reports with a status ('flaky': failed, then passed on a retry). */
function playwrightTests(report, status) {
  const titles = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === status) titles.push([...path, spec.title].filter(Boolean).join(' › '));
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  return titles;
}

if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
for (const test of flakyTests) console.log(`flaky (passed on its retry): ${test.slice(0, 300)}`);
for (const test of failedTests) console.log(`failed: ${test.slice(0, 300)}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length ? 1 : 0);
