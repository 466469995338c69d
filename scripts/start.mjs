// `npm start`: build what is missing or stale (web app, server bundle), then run the server.
// The server migrates the database itself before it listens. `npm start -- --help` lists the commands.
// package.json runs it with `--env-file-if-exists=.env`: a .env in the repository root is read.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { banner, HELP } from './start-text.mjs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(HELP);
  process.exit(0);
}

const root = new URL('..', import.meta.url).pathname;
const at = (...p) => join(root, ...p);

/** Newest modification time among the files below the given paths. */
function newest(paths) {
  let max = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const f of readdirSync(p)) if (f !== 'node_modules' && f !== 'dist') walk(join(p, f));
    } else max = Math.max(max, s.mtimeMs);
  };
  for (const p of paths) walk(p);
  return max;
}

function buildIfStale(name, output, sources, command) {
  if (existsSync(output) && statSync(output).mtimeMs >= newest(sources)) return;
  console.log(`Building ${name}…`);
  execSync(command, { cwd: root, stdio: 'inherit' });
}

const domain = at('packages/domain/src');
buildIfStale(
  'the web app',
  // Its last output: the server's render of the first pages (the app's own files come before it).
  at('apps/web/dist-ssr/ssr.js'),
  [
    at('apps/web/src'),
    at('apps/web/public'),
    at('apps/web/index.html'),
    at('apps/web/vite.config.ts'),
    at('apps/web/vite.ssr.config.ts'),
    domain,
  ],
  'npm run build -w apps/web',
);
buildIfStale(
  'the server',
  at('apps/server/dist/main.js'),
  [at('apps/server/src'), domain],
  'npm run build -w apps/server',
);

const { started } = await import(at('apps/server/dist/main.js'));
process.stdout.write(banner(await started));
