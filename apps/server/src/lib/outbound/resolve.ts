import { lookup } from 'node:dns/promises';

export type ResolvedAddress = { address: string; family: 4 | 6 };

/**
 * Turns a host name into its addresses (all of them). The server uses the system resolver; tests
 * inject one that answers from a table, so no test asks a DNS server off this machine.
 */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** `localhost`, `localhost.` and `*.localhost` are loopback by definition (RFC 6761 §6.3): never asked of DNS. */
export const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

const LOOPBACK: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** `resolve` with the localhost names answered here. */
export const withLocalhost =
  (resolve: Resolve): Resolve =>
  async (hostname) =>
    isLocalhostName(hostname) ? LOOPBACK : resolve(hostname);

/** Resolver errors that mean "this name has no address right now" (no network, no such name). */
const NOT_RESOLVABLE = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_NODATA',
  'ENODATA',
  'ESERVFAIL',
  'ETIMEOUT',
  'ECONNREFUSED',
  'ENOTIMP',
]);

export const isNotResolvable = (err: unknown) =>
  typeof err === 'object' && err !== null && NOT_RESOLVABLE.has(String((err as { code?: unknown }).code));
