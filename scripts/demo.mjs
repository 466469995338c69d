// `npm run demo [-- --keep]`: the whole product in one command. Fills a throwaway data directory with
// the demo (seed:demo), serves it like `npm start` (building what is missing), prints where and how to
// log in, and removes the directory on Ctrl+C unless --keep.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const keep = process.argv.includes('--keep');
const port = process.env.PORT ?? '8080';
const dataDir = mkdtempSync(join(tmpdir(), 'evdra-demo-'));
const env = { LOG_LEVEL: 'warn', ...process.env, DATA_DIR: dataDir, PORT: port };
delete env.DATABASE_URL; // the demo never touches a configured PostgreSQL

console.log(
  `Demo data directory: ${dataDir}${keep ? ' (kept: --keep)' : ' (removed when you stop the demo)'}`,
);
const seeded = spawnSync('npm', ['run', '--silent', 'seed:demo'], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (seeded.status !== 0) {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(seeded.status ?? 1);
}
const logins = seeded.stdout
  .toString()
  .split('\n')
  .filter((line) => line.startsWith('  '));

const server = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
if (await answers(`http://127.0.0.1:${port}/api/health`)) {
  console.log(
    `\nEvdra demo: http://localhost:${port}\nLog in as (username, password, role):\n${logins.join('\n')}`,
  );
  console.log(
    'maria (in Romanian) has the mechanic chat and a conversation; autopark sells most cars. Ctrl+C stops.\n',
  );
}

/** Polls the server's health until it answers (building the web app first can take a minute). */
async function answers(url) {
  for (let i = 0; i < 600 && server.exitCode === null; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => {
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
  console.log(
    keep ? `Demo stopped; its data stays in ${dataDir}` : 'Demo stopped; its data directory was removed.',
  );
  process.exit(stopping ? 0 : (code ?? 1));
});
