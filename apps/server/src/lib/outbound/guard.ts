import type { LookupFunction } from 'node:net';
import { classifyIp } from './address.js';
import { OutboundRefused } from './errors.js';
import { type OutboundInit, type OutboundResponse, type Protocol, requestThrough } from './request.js';

export type { Protocol };

import { type Resolve, type ResolvedAddress, systemResolve, withSpecialNames } from './resolve.js';

export type OutboundOptions = {
  /** Test-only: plain http and loopback addresses (never private or any other kind). */
  allowLocal: boolean;
  /** How names become addresses (the system's resolver unless a test gives its own). */
  resolve?: Resolve;
  /** How long `check` waits for a name (a user's request is waiting); past it, the name counts as unresolved. */
  checkResolveMs?: number;
};

const bare = (hostname: string) =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

const withDeadline = <T>(p: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })),
      ms,
    );
    timer.unref();
    p.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/**
 * The one way the server makes a request to a URL a user supplied (push endpoints today; webhooks
 * and rate feeds later): https only, every address of the host public unicast, checked when the
 * URL is given (`check`) and again for the address actually connected to (`request`, so a name
 * that resolves elsewhere later, DNS rebinding, is caught), no redirects followed, a timeout and
 * a response size cap.
 */
export class OutboundGuard {
  private readonly resolve: Resolve;

  constructor(private readonly o: OutboundOptions) {
    this.resolve = withSpecialNames(o.resolve ?? systemResolve);
  }

  /** May the server connect to `address` for a URL of this protocol? */
  allows(address: string, protocol: Protocol): boolean {
    const kind = classifyIp(address);
    if (kind === 'loopback') return this.o.allowLocal;
    return kind === 'public' && protocol === 'https:';
  }

  /** The parsed URL when its scheme may be requested; else OutboundRefused. */
  target(url: string): URL & { protocol: Protocol } {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new OutboundRefused('url', 'Not a URL.');
    }
    const ok = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && this.o.allowLocal);
    if (!ok || parsed.username || parsed.password) {
      throw new OutboundRefused('scheme', 'Only https:// URLs are requested.');
    }
    return parsed as URL & { protocol: Protocol };
  }

  /**
   * Checks a URL when a user gives it: refuses a non-https URL, an IP literal that is not public,
   * and a name whose addresses are not all public. A name that does not resolve now (no network,
   * no such name yet) passes: the connect-time check decides when it is used.
   */
  async check(url: string): Promise<void> {
    const target = this.target(url);
    const host = bare(target.hostname);
    if (classifyIp(host) !== null)
      return this.checkAddresses([{ address: host, family: 4 }], target.protocol);
    let addresses: ResolvedAddress[];
    try {
      addresses = await withDeadline(this.resolve(host), this.o.checkResolveMs ?? 3_000);
    } catch {
      addresses = [];
    }
    if (addresses.length > 0) return this.checkAddresses(addresses, target.protocol);
    // Plain http is for loopback only, which an unresolved name cannot be shown to be.
    if (target.protocol === 'http:') throw new OutboundRefused('scheme', 'Only https:// URLs are requested.');
  }

  private checkAddresses(addresses: ResolvedAddress[], protocol: Protocol) {
    for (const { address } of addresses) {
      if (this.allows(address, protocol)) continue;
      if (protocol === 'http:' && classifyIp(address) === 'public') {
        throw new OutboundRefused('scheme', 'Only https:// URLs are requested.');
      }
      throw new OutboundRefused('address', `${address} is not a public address.`);
    }
  }

  /**
   * The `lookup` a socket connects with: the name resolved again now and every address checked, so
   * the socket can only reach what passed (IP literals skip lookup: `request` checks them first).
   */
  lookupFor(protocol: Protocol): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname).then(
        (found) => {
          const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
          const list = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
          const first = list[0];
          if (!first) {
            callback(
              Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
              '',
            );
            return;
          }
          const refused = list.find((a) => !this.allows(a.address, protocol));
          if (refused) {
            callback(
              new OutboundRefused(
                'address',
                `${hostname} resolves to ${refused.address}, not a public address.`,
              ),
              '',
            );
          } else if (options.all) callback(null, list);
          else callback(null, first.address, first.family);
        },
        (err: NodeJS.ErrnoException) => callback(err, ''),
      );
    };
  }

  /** Requests `url` through the guard; resolves to the answer of a 1xx/2xx/4xx/5xx, rejects otherwise. */
  request(url: string, init: OutboundInit = {}): Promise<OutboundResponse> {
    return requestThrough(this, url, init);
  }
}
