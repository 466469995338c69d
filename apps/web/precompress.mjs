// After `vite build`: a Brotli (.br) and a gzip (.gz) copy of the hashed files (dist/assets) and the
// translations, served as they are (@fastify/static preCompressed) to browsers that accept them. A
// phone on a slow link then downloads ~30% of the bytes, with no compression work per request.
// index.html, sw.js and the rest are left alone: they are small, off the first screen's path, and a
// copy must never outlive a hand-edited original (a hashed name changes with its content).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('./dist/', import.meta.url).pathname;
const TEXT = /\.(js|css|html|json|svg|webmanifest|txt)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (TEXT.test(name)) yield path;
  }
}

let before = 0;
let after = 0;
for (const path of [...files(join(dist, 'assets')), ...files(join(dist, 'locales'))]) {
  const bytes = readFileSync(path);
  if (bytes.length < 1024) continue; // headers would outweigh the saving
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  before += bytes.length;
  after += br.length;
}
console.log(
  `precompressed: ${(before / 1000).toFixed(0)} kB of text → ${(after / 1000).toFixed(0)} kB Brotli`,
);
