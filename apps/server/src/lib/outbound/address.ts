import { isIPv6 } from 'node:net';

/**
 * What an IP address is, for deciding whether the server may connect to it on a user's behalf.
 * Only `public` (global unicast) is reachable by user-supplied URLs; `loopback` too under the
 * test-only switch. Pure: no DNS, no I/O.
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'documentation'
  | 'reserved'
  /** An IPv4 address spelled as IPv6 (::ffff:a.b.c.d, ::a.b.c.d): never a real server's address. */
  | 'ipv4-mapped';

export type ParsedIp = { family: 4; value: number } | { family: 6; words: number[] };

type V4Range = [base: string, bits: number, kind: AddressKind];

// Most specific first: the first match wins.
const V4_RANGES: V4Range[] = [
  ['0.0.0.0', 32, 'unspecified'],
  ['0.0.0.0', 8, 'reserved'], // "this network" (RFC 1122)
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'], // shared address space (RFC 6598)
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // includes 169.254.169.254, the cloud metadata service
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments (RFC 6890)
  ['192.0.2.0', 24, 'documentation'], // TEST-NET-1
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking (RFC 2544)
  ['198.51.100.0', 24, 'documentation'], // TEST-NET-2
  ['203.0.113.0', 24, 'documentation'], // TEST-NET-3
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'], // class E
];

const V4_TABLE = V4_RANGES.map(([base, bits, kind]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { net: ((parseIPv4(base) ?? 0) & mask) >>> 0, mask, kind };
});

/**
 * An IPv4 address in any spelling `inet_aton` (and so curl, ping, and the WHATWG URL parser)
 * accepts: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x), the last part filling the
 * remaining bytes: `127.1`, `0177.0.0.1`, `0x7f000001`, `2130706433` are all 127.0.0.1.
 * Null when the text is not such a number (then it is a host name or IPv6).
 */
export function parseIPv4(text: string): number | null {
  const parts = (text.endsWith('.') ? text.slice(0, -1) : text).split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0[xX][0-9a-fA-F]*$/.test(part)) n = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = Number.parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) n = Number(part);
    else return null;
    numbers.push(n);
  }
  const last = numbers.pop() ?? 0;
  if (numbers.some((n) => n > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + last;
}

/** The eight 16-bit words of an IPv6 address (brackets and a %zone allowed), or null. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  s = s.replace(/%.*$/, '');
  if (!isIPv6(s)) return null;
  // A dotted-quad tail (::ffff:10.0.0.1) is two words written differently.
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted?.[1]) {
    const v4 = parseIPv4Strict(dotted[1]);
    if (v4 === null) return null;
    s = `${s.slice(0, dotted.index + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = s.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((w) => Number.parseInt(w, 16)));
  const left = words(head);
  const right = rest === undefined ? [] : words(rest);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (rest === undefined && fill !== 0)) return null;
  return [...left, ...new Array<number>(fill).fill(0), ...right];
}

/** Dotted quad only (inside IPv6, where the loose forms are not allowed). */
function parseIPv4Strict(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((sum, p) => sum * 256 + Number(p), 0);
}

/** An IP literal in any accepted spelling, or null for a host name. */
export function parseIp(text: string): ParsedIp | null {
  const v4 = parseIPv4(text);
  if (v4 !== null) return { family: 4, value: v4 };
  const words = parseIPv6(text);
  return words ? { family: 6, words } : null;
}

function classifyV4(value: number): AddressKind {
  for (const r of V4_TABLE) if ((value & r.mask) >>> 0 === r.net) return r.kind;
  return 'public';
}

const embeddedV4 = (hi: number, lo: number) => ((hi << 16) >>> 0) + lo;

function classifyV6(w: number[]): AddressKind {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0] = w;
  const zeroUpTo = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && w7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), SIIT-translated (::ffff:0:a.b.c.d) and IPv4-compatible (::a.b.c.d):
  // the embedded IPv4 address's own kind when it is not public, else refused as a disguise.
  const mapped = zeroUpTo(5) && w5 === 0xffff;
  const translated = zeroUpTo(4) && w4 === 0xffff && w5 === 0;
  if (mapped || translated || zeroUpTo(6)) {
    const inner = classifyV4(embeddedV4(w6, w7));
    return inner === 'public' ? 'ipv4-mapped' : inner;
  }
  // NAT64 well-known prefix: reaches the embedded IPv4 address, so it is what that address is.
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) {
    return classifyV4(embeddedV4(w6, w7));
  }
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 1) return 'reserved'; // local-use NAT64 (RFC 8215)
  if (w0 === 0x100 && w1 === 0 && w2 === 0 && w3 === 0) return 'reserved'; // discard-only (RFC 6666)
  if (w0 === 0x2001 && w1 === 0xdb8) return 'documentation';
  if ((w0 & 0xfff0) === 0x3ff0) return 'documentation'; // 3fff::/20 (RFC 9637)
  if (w0 === 0x2001 && w1 < 0x200) return 'reserved'; // IETF protocol assignments, Teredo (2001::/23)
  // 6to4: the IPv4 address in words 1-2 is where it goes.
  if (w0 === 0x2002) {
    const inner = classifyV4(embeddedV4(w1, w2));
    if (inner !== 'public') return inner;
  }
  if ((w0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((w0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((w0 & 0xffc0) === 0xfec0) return 'private'; // site-local (deprecated)
  if ((w0 & 0xff00) === 0xff00) return 'multicast';
  if ((w0 & 0xe000) !== 0x2000) return 'reserved'; // only 2000::/3 is global unicast
  return 'public';
}

/** The kind of an IP literal, or null when `text` is not one (a host name). */
export function classifyIp(text: string): AddressKind | null {
  const ip = parseIp(text);
  if (!ip) return null;
  return ip.family === 4 ? classifyV4(ip.value) : classifyV6(ip.words);
}

/** True only for a global unicast address: the only kind a user-supplied URL may reach. */
export const isPublicUnicast = (text: string): boolean => classifyIp(text) === 'public';
