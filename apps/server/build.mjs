// Bundles the server into dist/main.js (npm packages stay external, the shared domain package is inlined),
// then builds dist/pglite-template: a migrated embedded database new data dirs start from.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
// Pure-JS libraries the server loads at every start are bundled: Node's CommonJS loader resolved
// and compiled them one file at a time (~0.8 s of a 2 s start). Packages with native code, WASM,
// data files read by path, or loaded only on demand stay external.
const BUNDLED = new Set([
  '@evdra/domain',
  '@fastify/multipart',
  '@fastify/rate-limit',
  '@fastify/static',
  '@fastify/swagger',
  'cookie',
  'drizzle-orm',
  'fast-json-stringify',
  'fastify',
  'fastify-plugin',
  'fastify-type-provider-zod',
  'fflate',
  'papaparse',
  'pg',
  'pino',
  'zod',
]);
const external = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name));

const outdir = new URL('./dist', import.meta.url).pathname;
const { metafile } = await build({
  entryPoints: {
    main: new URL('./src/main.ts', import.meta.url).pathname,
    seed: new URL('./src/demo/seed-cli.ts', import.meta.url).pathname,
    backup: new URL('./src/backup/cli.ts', import.meta.url).pathname,
    'build-template': new URL('./src/db/template-cli.ts', import.meta.url).pathname,
    // The embedded database's thread (db/pglite-socket.ts finds it beside main.js).
    'pglite-worker': new URL('./src/db/pglite-worker.ts', import.meta.url).pathname,
    // The PaddleOCR worker thread: its own file, which paddle-pool.ts loads as ./ocr-worker.js.
    'ocr-worker': new URL('./src/ocr/engines/paddle-worker.ts', import.meta.url).pathname,
    // The import's reading thread: modules/import/parse-thread.ts loads it as ./import-worker.js.
    'import-worker': new URL('./src/modules/import/parse-worker.ts', import.meta.url).pathname,
    // The PDF page rendering thread: files/pdf-render-thread.ts loads it as ./pdf-render-worker.js.
    'pdf-render-worker': new URL('./src/files/pdf-render-worker.ts', import.meta.url).pathname,
  },
  outdir,
  bundle: true,
  // Code split at dynamic imports: main.js starts the database before it loads the app's chunk
  // (Fastify, the routes, their libraries), which then loads while the database opens. Chunks sit
  // beside the entries, so import.meta.url still finds the workers and the template.
  splitting: true,
  metafile: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  // Bundled CommonJS libraries require Node's own modules: an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __evdraCreateRequire } from 'node:module'; const require = __evdraCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
// Chunks of earlier builds go (a chunk's name ends in its content's hash: name-ABCD1234.js).
const built = new Set(Object.keys(metafile.outputs).map((path) => basename(path)));
for (const name of readdirSync(outdir))
  if (/-[A-Z0-9]{8}\.js(\.map)?$/.test(name) && !built.has(name)) rmSync(join(outdir, name));

// The template must match the bundle's migrations: rebuilt on every build (a few seconds of WASM).
await import(new URL('./dist/build-template.js', import.meta.url).href);
