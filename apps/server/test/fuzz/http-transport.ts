import { Agent, type ClientRequest, request } from 'node:http';
import { type FuzzRequest, type FuzzResponse, SERVER_BODY_LIMIT, type Transport } from './fuzzer.js';

/**
 * Raw HTTP (not fetch): bodies on GET, odd content types and header bytes go out as given. One
 * keep-alive connection, as a browser tab would use. `close()` ends it, so nothing of the run is
 * left open when the command ends.
 */
export function httpTransport(
  base: string,
  opts: { idleTimeoutMs?: number } = {},
): { transport: Transport; close(): void } {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  // The fuzzer gives up on a request after its own timeout (10 s); end the connection a little
  // later, so the requests after a hang do not queue behind it on the one socket.
  const idleTimeoutMs = opts.idleTimeoutMs ?? 11_000;

  const once = (req: FuzzRequest, body: Buffer | undefined) =>
    new Promise<FuzzResponse>((resolve, reject) => {
      const r: ClientRequest = request(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.url,
          agent,
          headers: { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              headers: res.headers,
            }),
          );
          res.on('error', reject);
        },
      );
      r.setTimeout(idleTimeoutMs, () =>
        r.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })),
      );
      r.on('error', (err: Error & { reusedSocket?: boolean }) =>
        reject(Object.assign(err, { reusedSocket: r.reusedSocket })),
      );
      r.end(body);
    });

  const transport: Transport = async (req) => {
    const body =
      req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
    try {
      return await once(req, body);
    } catch (err) {
      // A kept-alive connection the server closed just as it was reused (Node's documented race):
      // the request never reached the server, so sending it again on a new connection is safe. Not
      // a body over the server's limit: that reset is the server refusing it (fuzzer.ts).
      const e = err as { code?: string; reusedSocket?: boolean };
      if (e.reusedSocket && e.code === 'ECONNRESET' && (body?.length ?? 0) <= SERVER_BODY_LIMIT)
        return once(req, body);
      throw err;
    }
  };
  return { transport, close: () => agent.destroy() };
}
