import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityPlugin } from '../src/plugins/security.js';
import { inlineScriptHashes, webAppPlugin } from '../src/plugins/web-app.js';

// The built web app as the build leaves it: hashed assets and translations with their .br and .gz
// copies (apps/web/precompress.mjs), index.html without.
const script = `console.log(${JSON.stringify('evdra '.repeat(400))});`;
const html = `<!doctype html><title>Evdra</title>${'<!-- shell -->'.repeat(100)}`;
let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evdra-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), html);
  for (const [path, text] of [['assets/index-abc.js', script]] as const) {
    writeFileSync(join(dir, path), text);
    writeFileSync(join(dir, `${path}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${path}.gz`), gzipSync(text));
  }
  writeFileSync(join(dir, 'assets', 'plain.css'), 'body{margin:0}');
  app = Fastify();
  await app.register(webAppPlugin, { webDist: dir });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('web app files', () => {
  it('sends the Brotli copy of a script to a browser that accepts it, with the script type and immutable caching', async () => {
    const res = await app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
    expect(res.rawPayload.length).toBeLessThan(script.length / 5);
  });

  it('sends gzip when Brotli is not accepted, and the file as it is when nothing is', async () => {
    const gz = await app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('the page a deep link gets (index.html, no copy) is sent as it is and revalidated', async () => {
    const res = await app.inject({ url: '/fuel/12', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(html);
  });

  it('a file without a compressed copy is sent as it is; a missing one is the JSON 404', async () => {
    const css = await app.inject({ url: '/assets/plain.css', headers: { 'accept-encoding': 'br, gzip' } });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.body).toBe('body{margin:0}');
    const missing = await app.inject({ url: '/assets/gone.js', headers: { 'accept-encoding': 'br' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('inline scripts of the built page', () => {
  it('the CSP allows exactly the inline scripts of index.html by hash, not its JSON data or its files', async () => {
    const web = mkdtempSync(join(tmpdir(), 'evdra-web-csp-'));
    const inline = "document.body.classList.add('dark-mode');";
    writeFileSync(
      join(web, 'index.html'),
      `<!doctype html><head><script type="application/json" id="first-pages">[]</script></head>` +
        `<body><script>${inline}</script><script type="module" src="/assets/index-abc.js"></script></body>`,
    );
    const expected = `sha256-${createHash('sha256').update(inline).digest('base64')}`;
    expect(inlineScriptHashes(web)).toEqual([expected]);
    const withCsp = Fastify();
    await withCsp.register(securityPlugin, { hsts: false, scriptHashes: inlineScriptHashes(web) });
    withCsp.get('/', async () => 'ok');
    const res = await withCsp.inject({ url: '/' });
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' '${expected}';`);
    await withCsp.close();
    // No build, no inline script: the strict rule alone.
    expect(inlineScriptHashes(join(web, 'missing'))).toEqual([]);
    rmSync(web, { recursive: true, force: true });
  });
});
