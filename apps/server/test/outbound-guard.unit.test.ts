import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, OutboundRefused } from '../src/lib/outbound/errors.js';
import { OutboundGuard, type Protocol } from '../src/lib/outbound/guard.js';
import { tableResolver } from './helpers/resolver.js';

// Issue 49: the guard every request to a user-supplied URL goes through. Every server here listens
// on 127.0.0.1; every other address is only classified, never connected to (the guard refuses
// before a socket is opened, and the counters below prove no connection reached our servers).

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function loopbackServer(handler: Handler) {
  let connections = 0;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  let bytes = 0;
  server.on('connection', (socket) => {
    connections += 1;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    connections: () => connections,
    bytes: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let ok: Awaited<ReturnType<typeof loopbackServer>>;
let inside: Awaited<ReturnType<typeof loopbackServer>>;
let redirect: Awaited<ReturnType<typeof loopbackServer>>;
let big: Awaited<ReturnType<typeof loopbackServer>>;
let slow: Awaited<ReturnType<typeof loopbackServer>>;

beforeAll(async () => {
  ok = await loopbackServer((_req, res) => {
    res.statusCode = 201;
    res.end('created');
  });
  // Stands for an address inside the network that a redirect points at.
  inside = await loopbackServer((_req, res) => res.end('secret'));
  redirect = await loopbackServer((_req, res) => {
    res.writeHead(307, { location: `http://127.0.0.1:${inside.port}/latest/meta-data` });
    res.end();
  });
  big = await loopbackServer((_req, res) => res.end(Buffer.alloc(200 * 1024, 1)));
  slow = await loopbackServer(() => undefined); // never answers
});
afterAll(async () => {
  for (const s of [ok, inside, redirect, big, slow]) await s.close();
});

const refusedReason = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundRefused);
  return (err as OutboundRefused).reason;
};

describe('check (when a user gives a URL)', () => {
  const dns = tableResolver({
    'inside.corp.test': ['10.0.0.5'],
    'metadata.test': ['169.254.169.254'],
    'loop.test': ['127.0.0.1'],
    'loop6.test': ['::1'],
    'mixed.test': ['93.184.215.14', '10.0.0.5'],
    'public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  });
  const strict = new OutboundGuard({ allowLocal: false, resolve: dns.resolve });
  const local = new OutboundGuard({ allowLocal: true, resolve: dns.resolve });

  it('refuses every inside address literal at once, without resolving anything', async () => {
    dns.asked.length = 0;
    for (const host of [
      '127.0.0.2',
      '[::1]',
      '0x7f000001',
      '2130706433',
      '0177.0.0.1',
      '127.1',
      '[::ffff:7f00:1]',
      '[::ffff:10.0.0.1]',
      '10.0.0.5',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '[fd00::1]',
      '[fe80::1]',
      '224.0.0.1',
      '0.0.0.0',
      '[::]',
      '255.255.255.255',
      '192.0.2.1',
      '[64:ff9b::a00:5]',
    ]) {
      expect(await refusedReason(strict.check(`https://${host}/push/x`)), host).toBe('address');
    }
    expect(dns.asked).toEqual([]);
  });

  it('refuses localhost names without asking DNS', async () => {
    dns.asked.length = 0;
    for (const host of ['localhost', 'localhost.', 'LOCALHOST', 'push.localhost', 'push.localhost.']) {
      expect(await refusedReason(strict.check(`https://${host}:8443/p`)), host).toBe('address');
    }
    expect(dns.asked).toEqual([]);
  });

  it('refuses a name whose addresses are inside, or not all public', async () => {
    for (const host of ['inside.corp.test', 'metadata.test', 'loop.test', 'loop6.test', 'mixed.test']) {
      expect(await refusedReason(strict.check(`https://${host}/p`)), host).toBe('address');
    }
  });

  it('accepts a public address and a name that resolves only to public ones', async () => {
    await expect(strict.check('https://93.184.215.14/p')).resolves.toBeUndefined();
    await expect(strict.check('https://[2606:4700::1111]/p')).resolves.toBeUndefined();
    await expect(strict.check('https://public.test/p')).resolves.toBeUndefined();
  });

  it('accepts a name that does not resolve now: the connect-time check decides later', async () => {
    await expect(strict.check('https://not-in-the-table.test/p')).resolves.toBeUndefined();
    // `.invalid` names never exist (RFC 6761): answered here, DNS is not asked.
    const asked = dns.asked.length;
    await expect(strict.check('https://push.example.invalid/p')).resolves.toBeUndefined();
    expect(dns.asked.length).toBe(asked);
    // A resolver that never answers: the user's request does not wait for it.
    const hanging = new OutboundGuard({
      allowLocal: false,
      resolve: () => new Promise(() => undefined),
      checkResolveMs: 50,
    });
    await expect(hanging.check('https://slow-dns.test/p')).resolves.toBeUndefined();
  });

  it('https only: http, other schemes, credentials and non-URLs are refused', async () => {
    for (const url of [
      'http://93.184.215.14/p',
      'http://public.test/p',
      'ftp://public.test/p',
      'file:///etc/passwd',
      'gopher://127.0.0.1:6379/_INFO',
      'https://user:pass@public.test/p',
    ]) {
      expect(await refusedReason(strict.check(url)), url).toBe('scheme');
    }
    expect(await refusedReason(strict.check('not a url'))).toBe('url');
  });

  it('the local switch allows http and loopback only: never private addresses or other http hosts', async () => {
    for (const url of [
      'http://127.0.0.1:9/p',
      'http://localhost:9/p',
      'http://localhost.:9/p',
      'http://[::1]:9/p',
      'https://127.0.0.2/p',
      'http://loop.test:9/p',
    ]) {
      await expect(local.check(url), url).resolves.toBeUndefined();
    }
    for (const url of ['https://10.0.0.5/p', 'https://169.254.169.254/', 'http://inside.corp.test/p']) {
      expect(await refusedReason(local.check(url)), url).toBe('address');
    }
    for (const url of ['http://93.184.215.14/p', 'http://public.test/p', 'http://nowhere.test/p']) {
      expect(await refusedReason(local.check(url)), url).toBe('scheme');
    }
  });
});

describe('request (connect-time check, redirects, timeout, size cap)', () => {
  it('reaches a loopback server only with the local switch, by literal or by a name mapped to loopback', async () => {
    const dns = tableResolver({ 'push.loop.test': ['127.0.0.1'] });
    const local = new OutboundGuard({ allowLocal: true, resolve: dns.resolve });
    for (const host of ['127.0.0.1', 'push.loop.test', 'localhost']) {
      const res = await local.request(`http://${host}:${ok.port}/push/a`, {
        method: 'POST',
        body: Buffer.from('x'),
      });
      expect(res.status, host).toBe(201);
      expect(res.body.toString()).toBe('created');
    }
    expect(ok.requests).toEqual(['POST /push/a', 'POST /push/a', 'POST /push/a']);
  });

  it('without the switch, refuses a loopback literal and a name resolving to loopback: no connection is made', async () => {
    const dns = tableResolver({ 'push.loop.test': ['127.0.0.1'] });
    const strict = new OutboundGuard({ allowLocal: false, resolve: dns.resolve });
    const before = ok.connections();
    for (const url of [
      `https://127.0.0.1:${ok.port}/p`,
      `https://0x7f000001:${ok.port}/p`,
      `https://[::ffff:7f00:1]:${ok.port}/p`,
      `https://localhost.:${ok.port}/p`,
      `https://push.loop.test:${ok.port}/p`,
    ]) {
      expect(await refusedReason(strict.request(url, { method: 'POST' })), url).toBe('address');
    }
    expect(ok.connections()).toBe(before);
  });

  it('resolves again as it connects: a name that passed the check and now points inside is refused (DNS rebinding)', async () => {
    const dns = tableResolver({ 'rebind.test': ['93.184.215.14'] });
    const strict = new OutboundGuard({ allowLocal: false, resolve: dns.resolve });
    await expect(strict.check(`https://rebind.test:${ok.port}/p`)).resolves.toBeUndefined();
    dns.table['rebind.test'] = ['127.0.0.1'];
    const before = ok.connections();
    expect(await refusedReason(strict.request(`https://rebind.test:${ok.port}/p`))).toBe('address');
    expect(ok.connections()).toBe(before);
    expect(dns.asked).toEqual(['rebind.test', 'rebind.test']);
  });

  it('checks the address the socket actually connected to, before sending a byte', async () => {
    // A lookup that lets anything through stands for a resolver the hook could not see.
    class UncheckedLookup extends OutboundGuard {
      override lookupFor(_protocol: Protocol): LookupFunction {
        return (_host, options, callback) => {
          if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
          else callback(null, '127.0.0.1', 4);
        };
      }
    }
    const guard = new UncheckedLookup({ allowLocal: false });
    const before = { requests: ok.requests.length, bytes: ok.bytes() };
    expect(await refusedReason(guard.request(`https://anything.test:${ok.port}/p`, { method: 'POST' }))).toBe(
      'address',
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(ok.requests.length).toBe(before.requests);
    expect(ok.bytes()).toBe(before.bytes);
  });

  it('under the switch, a name that resolves to loopback and a private address is still refused', async () => {
    const dns = tableResolver({ 'half.test': ['127.0.0.1', '10.0.0.5'] });
    const local = new OutboundGuard({ allowLocal: true, resolve: dns.resolve });
    const before = ok.connections();
    expect(await refusedReason(local.request(`http://half.test:${ok.port}/p`))).toBe('address');
    expect(ok.connections()).toBe(before);
  });

  it('does not follow a redirect: a 307 to an inside address is a failure and the inside server gets nothing', async () => {
    const local = new OutboundGuard({ allowLocal: true });
    const err = await local
      .request(`http://127.0.0.1:${redirect.port}/push/r`, { method: 'POST' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err).toMatchObject({ kind: 'redirect', status: 307 });
    expect(redirect.requests).toEqual(['POST /push/r']);
    expect(inside.connections()).toBe(0);
  });

  it('caps the answer size and the time it may take', async () => {
    const local = new OutboundGuard({ allowLocal: true });
    await expect(
      local.request(`http://127.0.0.1:${big.port}/`, { maxResponseBytes: 64 * 1024 }),
    ).rejects.toMatchObject({ kind: 'too-large' });
    const small = await local.request(`http://127.0.0.1:${big.port}/`, { maxResponseBytes: 256 * 1024 });
    expect(small.body.length).toBe(200 * 1024);
    const started = Date.now();
    await expect(local.request(`http://127.0.0.1:${slow.port}/`, { timeoutMs: 300 })).rejects.toMatchObject({
      kind: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
