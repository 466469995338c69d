import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { classifyIp } from './address.js';
import { OutboundError, OutboundRefused } from './errors.js';

export type Protocol = 'http:' | 'https:';

/** What a request needs of the guard (OutboundGuard is one): kept here so the two files do not import each other. */
export type AddressPolicy = {
  target(url: string): URL & { protocol: Protocol };
  allows(address: string, protocol: Protocol): boolean;
  lookupFor(protocol: Protocol): LookupFunction;
};

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  /** From the start to the last byte of the answer. */
  timeoutMs?: number;
  /** A longer answer fails the request (its body is read into memory). */
  maxResponseBytes?: number;
};

export type OutboundResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer };

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One request through `guard`: the scheme and an IP literal host are checked before anything is
 * sent; a name is resolved by the guard's lookup as the socket connects; and the address the
 * socket did connect to is checked once more before a byte of the request goes out. A fresh
 * connection each time (no pooled socket from an earlier check). A 3xx is a failure, not followed.
 */
export function requestThrough(
  guard: AddressPolicy,
  url: string,
  init: OutboundInit,
): Promise<OutboundResponse> {
  const target = guard.target(url);
  const protocol = target.protocol;
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (classifyIp(host) !== null && !guard.allows(host, protocol)) {
    return Promise.reject(new OutboundRefused('address', `${host} is not a public address.`));
  }
  const maxBytes = init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const send = protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send({
      protocol,
      hostname: host,
      port: target.port || undefined,
      path: `${target.pathname}${target.search}`,
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
      lookup: guard.lookupFor(protocol),
    });
    const finish = (err: Error | null, answer?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        reject(err);
      } else if (answer) resolve(answer);
    };
    const timer = setTimeout(
      () =>
        finish(new OutboundError('timeout', `No answer within ${init.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms.`)),
      init.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    req.on('error', (err) => finish(err));
    req.on('socket', (socket: Socket) => {
      // First among the socket's connect listeners, so it runs before the queued request is written.
      socket.prependOnceListener('connect', () => {
        const remote = socket.remoteAddress ?? '';
        if (!guard.allows(remote, protocol)) {
          const refused = new OutboundRefused('address', `Connected to ${remote}, not a public address.`);
          finish(refused);
          socket.destroy(refused);
        }
      });
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        finish(new OutboundError('redirect', `Answered ${status}; redirects are not followed.`, status));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) finish(new OutboundError('too-large', `The answer is over ${maxBytes} bytes.`));
        else chunks.push(chunk);
      });
      res.on('error', (err) => finish(err));
      res.on('end', () => finish(null, { status, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.end(init.body ? Buffer.from(init.body) : undefined);
  });
}
