import type { Resolve, ResolvedAddress } from '../../src/lib/outbound/resolve.js';

/**
 * A resolver that answers from a table and never asks a DNS server (this machine's nameserver is
 * not on loopback, and tests send nothing off the machine). A name the table lacks does not exist
 * (ENOTFOUND), as a name does when there is no network. The table may change during a test (DNS
 * rebinding); `asked` lists the names looked up, in order.
 */
export function tableResolver(table: Record<string, string[]> = {}) {
  const asked: string[] = [];
  const resolve: Resolve = async (hostname) => {
    asked.push(hostname);
    const addresses = table[hostname.toLowerCase()];
    if (!addresses?.length) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    }
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, table, asked };
}
