import type { FastifyInstance, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { acceptedEncoding, encode } from '../lib/encoding.js';

/** Smaller answers gain less than the coding costs (and than a packet holds). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * The JSON a GET answers, in the coding the client accepts (Brotli, else gzip), once it is 1 KiB or
 * more: on a phone the 300-row fuel list is 72 KiB as is and 5 KiB in Brotli or gzip. Only GET: a
 * POST's answer is small, and the idempotency hook keeps it to replay to whichever client retries.
 * Answers that set their own coding (photos, the API description, the first screen) pass untouched.
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  const compressJson: onSendHookHandler = (req, reply, payload, done) => {
    const accepted = req.headers['accept-encoding'];
    // A client that asks for no coding (most API clients) costs this hook nothing more.
    if (!accepted || req.method !== 'GET' || reply.hasHeader('content-encoding')) return done(null, payload);
    // A text's length in characters: its bytes are at least as many.
    const size = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.length : 0;
    if (size < COMPRESS_FROM_BYTES || !isJson(reply.getHeader('content-type'))) return done(null, payload);
    reply.header('vary', 'accept-encoding');
    const encoding = acceptedEncoding(accepted);
    if (encoding === 'identity') return done(null, payload);
    compressed(payload as string | Buffer, encoding).then((body) => {
      reply.header('content-encoding', encoding).removeHeader('content-length');
      done(null, body);
    }, done);
  };
  app.addHook('onSend', compressJson);
});

/**
 * A kept answer (the vehicle and record lists hand out the same Buffer until their data changes) is
 * compressed once per coding, for as long as it lives; text built for one request each time.
 */
const kept = new WeakMap<Buffer, Partial<Record<'br' | 'gzip', Promise<Buffer>>>>();
function compressed(payload: string | Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  if (typeof payload === 'string') return encode(Buffer.from(payload), encoding);
  let codings = kept.get(payload);
  if (!codings) {
    codings = {};
    kept.set(payload, codings);
  }
  codings[encoding] ??= encode(payload, encoding);
  return codings[encoding];
}

const isJson = (type: unknown) => typeof type === 'string' && type.startsWith('application/json');
