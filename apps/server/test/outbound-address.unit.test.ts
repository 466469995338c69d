import { describe, expect, it } from 'vitest';
import {
  type AddressKind,
  classifyIp,
  isPublicUnicast,
  parseIPv4,
  parseIPv6,
} from '../src/lib/outbound/address.js';

// Issue 49: the classifier that decides which addresses a user-supplied URL may reach. Pure: these
// addresses are only parsed, never connected to.

const cases: Record<AddressKind, string[]> = {
  public: [
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255', // just below 10/8
    '11.0.0.0', // just above
    '100.63.255.255', // just below CGNAT
    '100.128.0.0', // just above
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82a::200e',
    '[2001:4860:4860::8888]',
    '64:ff9b::808:808', // NAT64 of 8.8.8.8
    '2002:808:808::1', // 6to4 of 8.8.8.8
  ],
  loopback: [
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    // IPv4 in the spellings inet_aton and URL parsers accept
    '0x7f000001',
    '0X7F000001',
    '2130706433',
    '0177.0.0.1',
    '0177.0000.0000.0001',
    '127.1',
    '127.0.1',
    '0x7f.1',
    '0x7f.0.0.1',
    '127.0.0.1.', // trailing dot
    // IPv6 forms of it
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '[::ffff:7f00:1]',
    '::127.0.0.1', // IPv4-compatible
    '::ffff:0:7f00:1', // SIIT translated
    '64:ff9b::7f00:1', // NAT64
    '2002:7f00:1::', // 6to4
  ],
  private: [
    '10.0.0.5',
    '10.255.255.255',
    '012.0.0.1', // octal 10.0.0.1
    '0xa.0.0.1',
    '167772161', // 10.0.0.1
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '192.168.255.255',
    '0xc0a80001', // 192.168.0.1
    '::ffff:10.0.0.1',
    '::ffff:a00:1',
    '::ffff:192.168.1.1',
    '::10.0.0.1',
    '64:ff9b::a00:5', // NAT64 of 10.0.0.5
    '64:ff9b::192.168.0.1',
    '2002:a00:1::1', // 6to4 of 10.0.0.1
    'fec0::1', // site-local (deprecated)
  ],
  'link-local': [
    '169.254.169.254', // cloud metadata
    '169.254.0.1',
    '0xa9fea9fe', // 169.254.169.254
    '2852039166',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    'fe80::1',
    'fe80::1%eth0',
    'febf:ffff::1',
  ],
  cgnat: ['100.64.0.0', '100.64.0.1', '100.127.255.255', '::ffff:100.64.0.1'],
  'unique-local': ['fc00::1', 'fd00::1', 'fd12:3456:789a::1', 'fdff:ffff::1'],
  multicast: ['224.0.0.1', '239.255.255.250', '230.1.2.3', 'ff02::1', 'ff05::1:3', '::ffff:224.0.0.1'],
  unspecified: ['0.0.0.0', '0', '0x0', '::', '[::]', '0:0:0:0:0:0:0:0'],
  broadcast: ['255.255.255.255', '4294967295', '0xffffffff', '::ffff:255.255.255.255'],
  documentation: [
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '2001:db8::1',
    '2001:0db8:85a3::8a2e:370:7334',
    '3fff::1',
  ],
  reserved: [
    '0.1.2.3', // "this network"
    '192.0.0.8', // IETF protocol assignments
    '192.88.99.1', // 6to4 relay
    '198.18.0.1', // benchmarking
    '198.19.255.255',
    '240.0.0.1', // class E
    '254.1.2.3',
    '100::1', // discard-only
    '2001::1', // Teredo
    '2001:10::1', // ORCHID
    '64:ff9b:1::a00:1', // local-use NAT64
    '4000::1', // outside 2000::/3
    '::2', // IPv4-compatible 0.0.0.2
  ],
  'ipv4-mapped': ['::ffff:8.8.8.8', '::ffff:808:808', '::8.8.8.8', '::ffff:0:808:808'],
};

describe('classifyIp', () => {
  for (const [kind, addresses] of Object.entries(cases)) {
    it(`${kind}: ${addresses.slice(0, 4).join(', ')}…`, () => {
      for (const address of addresses) expect(classifyIp(address), address).toBe(kind);
    });
  }

  it('only public unicast is reachable', () => {
    for (const [kind, addresses] of Object.entries(cases)) {
      for (const address of addresses) expect(isPublicUnicast(address), address).toBe(kind === 'public');
    }
  });

  it('answers null for host names and text that is no address, so they are resolved instead', () => {
    for (const name of [
      'push.example.com',
      'localhost',
      'localhost.',
      '1.2.3.4.5',
      '256.0.0.1',
      '0x100000000',
      '4294967296',
      '1.2.3.0x100',
      '08.0.0.1', // not octal, not decimal
      '1::2::3',
      '12345::',
      '::ffff:1.2.3',
      '',
      '.',
      '1..2',
    ]) {
      expect(classifyIp(name), name).toBeNull();
    }
  });
});

describe('address parsing', () => {
  it('reads each IPv4 spelling as the one number it means', () => {
    expect(parseIPv4('127.0.0.1')).toBe(0x7f000001);
    expect(parseIPv4('127.1')).toBe(0x7f000001);
    expect(parseIPv4('127.0.1')).toBe(0x7f000001);
    expect(parseIPv4('0177.0.0.1')).toBe(0x7f000001);
    expect(parseIPv4('0x7f000001')).toBe(0x7f000001);
    expect(parseIPv4('2130706433')).toBe(0x7f000001);
    expect(parseIPv4('1.2.65535')).toBe(0x0102ffff);
    expect(parseIPv4('1.2.65536')).toBeNull();
    expect(parseIPv4('1.256.1')).toBeNull();
  });

  it('expands IPv6, with a dotted tail and a zone', () => {
    expect(parseIPv6('::ffff:10.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001]);
    expect(parseIPv6('[fe80::1%25eth0]')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1:2:3:4:5:6:7')).toBeNull();
  });
});
