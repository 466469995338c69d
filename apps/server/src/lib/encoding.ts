import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from './etag.js';

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The content coding to answer in, from Accept-Encoding (RFC 9110 §12.5.3): the one of br and gzip
 * the client rates higher (directly or through `*`), Brotli on a tie; identity when it wants
 * neither. A coding rated q=0 is refused.
 */
export function acceptedEncoding(header: string | string[] | undefined): Encoding {
  if (!header) return 'identity';
  const rated = new Map<string, number>();
  for (const part of String(header).split(',')) {
    const [name = '', ...params] = part.split(';');
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    rated.set(name.trim().toLowerCase(), Number.isNaN(value) ? 0 : value);
  }
  const rating = (coding: string) => rated.get(coding) ?? rated.get('*') ?? 0;
  const br = rating('br');
  const gz = rating('gzip');
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : 'identity';
}

/** A fixed answer kept in every coding a client may ask for, under one (weak) ETag. */
export type Precompressed = { etag: string; type: string; bodies: Record<Encoding, Buffer> };

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A per-request answer up to this size is compressed on the event loop: zlib's thread pool costs more
 * than the coding itself on small texts (a 10 KB list: 124 µs at Brotli 4 on the loop, 525 µs through
 * the pool; 75 KB: 593 against 1,073 µs), and under load the pool's round trip is what a page waits on.
 */
export const COMPRESS_ON_LOOP_BYTES = 64 * 1024;

/**
 * Per request, Brotli quality 4: the size of gzip -6 in less time (the 300-row fuel list: 5.2 KiB in
 * 245 µs, against 5.0 KiB in 307 µs; 5 and up take twice as long). `best` (Brotli 11, gzip 9) for a
 * body compressed once and kept, always off the event loop (it takes a while on a big text).
 */
export function encode(input: Buffer, encoding: 'br' | 'gzip', best = false): Promise<Buffer> {
  // The size hint lets Brotli size its tables to the text (a 45 KB list: 159 → 124 µs at quality 4).
  const brOptions = {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: best ? 11 : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: input.length,
    },
  };
  const gzOptions = { level: best ? 9 : 6 };
  if (!best && input.length <= COMPRESS_ON_LOOP_BYTES) {
    // In a promise's executor, so a failure rejects as the pool's would rather than throwing.
    return new Promise((resolve) =>
      resolve(encoding === 'br' ? brotliCompressSync(input, brOptions) : gzipSync(input, gzOptions)),
    );
  }
  return encoding === 'br' ? brotli(input, brOptions) : gzipped(input, gzOptions);
}

/** Compresses once, at the best qualities (which take a while on a big text). */
export async function precompress(text: string, type: string): Promise<Precompressed> {
  const identity = Buffer.from(text);
  const [br, gz] = await Promise.all([encode(identity, 'br', true), encode(identity, 'gzip', true)]);
  // Weak: the three codings are the same document, so a cached copy in any of them is still good.
  const etag = `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;
  return { etag, type, bodies: { identity, br, gzip: gz } };
}

/** Sends it in the coding the client accepts best; 304 when it already has it (If-None-Match). */
export function sendPrecompressed(req: FastifyRequest, reply: FastifyReply, answer: Precompressed) {
  reply.header('vary', 'accept-encoding').header('etag', answer.etag).header('cache-control', 'no-cache');
  if (etagMatches(req.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  const encoding = acceptedEncoding(req.headers['accept-encoding']);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type(answer.type).send(answer.bodies[encoding]);
}
