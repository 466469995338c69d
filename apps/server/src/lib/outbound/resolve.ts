import dns from 'node:dns';

export type ResolvedAddress = { address: string; family: 4 | 6 };

/**
 * Turns a host name into its addresses (all of them). The server uses the system resolver; tests
 * inject one that answers from a table, so no test asks a DNS server off this machine.
 */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

// Looked up on the module object at each call, so a test that stubs dns.promises.lookup is obeyed.
export const systemResolve: Resolve = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** `localhost`, `localhost.` and `*.localhost` are loopback by definition (RFC 6761 §6.3): never asked of DNS. */
export const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

const LOOPBACK: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** Names under `.invalid` never exist (RFC 6761 §6.4): answered at once, without asking DNS. */
export const isInvalidName = (hostname: string) => /(^|\.)invalid\.?$/i.test(hostname);

/** `resolve` with the special-use names answered here: localhost is loopback, `.invalid` does not exist. */
export const withSpecialNames =
  (resolve: Resolve): Resolve =>
  async (hostname) => {
    if (isLocalhostName(hostname)) return LOOPBACK;
    if (isInvalidName(hostname)) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    }
    return resolve(hostname);
  };
