import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenService } from '../src/modules/auth/tokens.js';

// Unit tests of the access-token code: only a token this server signed, unchanged and unexpired, passes.
const SECRET = 'unit-test-secret-that-is-long-enough-0123';
const t0 = new Date('2026-03-01T10:00:00Z');
const claims = {
  userId: 7,
  role: 'USER' as const,
  familyId: '2b1f0a3c-0000-4000-8000-000000000001',
  epoch: 3,
};
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const hs256 = (data: string, secret = SECRET) =>
  createHmac('sha256', secret).update(data).digest('base64url');
const parts = (token: string) => token.split('.') as [string, string, string];
const payloadOf = (token: string) => JSON.parse(Buffer.from(parts(token)[1], 'base64url').toString());

describe('TokenService access tokens', () => {
  const tokens = new TokenService(SECRET, () => t0);
  const good = tokens.signAccess(claims);

  it('accepts its own token and reads the claims back', () => {
    expect(tokens.verifyAccess(good)).toEqual(claims);
  });

  it('refuses a tampered payload under the valid header and signature', () => {
    const [h, , s] = parts(good);
    for (const change of [{ sub: '1' }, { role: 'ADMIN' }, { ep: 4 }, { exp: payloadOf(good).exp + 3600 }]) {
      const forged = `${h}.${b64({ ...payloadOf(good), ...change })}.${s}`;
      expect(tokens.verifyAccess(forged)).toBeNull();
    }
    // Same JSON, different encoding (padding, whitespace) is a different payload too.
    expect(tokens.verifyAccess(`${h}.${b64(` ${JSON.stringify(payloadOf(good))}`)}.${s}`)).toBeNull();
  });

  it('refuses a tampered signature, a truncated one and an empty one', () => {
    const [h, p, s] = parts(good);
    const flipped = `${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(tokens.verifyAccess(`${h}.${p}.${flipped}`)).toBeNull();
    expect(tokens.verifyAccess(`${h}.${p}.${s.slice(0, 10)}`)).toBeNull();
    expect(tokens.verifyAccess(`${h}.${p}.`)).toBeNull();
  });

  it('refuses a token signed with another secret', () => {
    expect(
      new TokenService('another-secret-that-is-long-enough-987654', () => t0).verifyAccess(good),
    ).toBeNull();
    const [h, p] = parts(good);
    expect(tokens.verifyAccess(`${h}.${p}.${hs256(`${h}.${p}`, 'wrong')}`)).toBeNull();
  });

  it('refuses a token at and after its expiry, accepts it just before', () => {
    const exp = payloadOf(good).exp * 1000;
    expect(new TokenService(SECRET, () => new Date(exp - 1000)).verifyAccess(good)).toEqual(claims);
    expect(new TokenService(SECRET, () => new Date(exp)).verifyAccess(good)).toBeNull();
    expect(new TokenService(SECRET, () => new Date(exp + 60_000)).verifyAccess(good)).toBeNull();
  });

  it('refuses a remembered token once it expires, and never remembers a forged one', () => {
    let now = t0;
    const clocked = new TokenService(SECRET, () => now);
    const token = clocked.signAccess(claims);
    expect(clocked.verifyAccess(token)).toEqual(claims); // checked, then remembered
    expect(clocked.verifyAccess(token)).toEqual(claims); // answered from memory
    now = new Date(payloadOf(token).exp * 1000);
    expect(clocked.verifyAccess(token)).toBeNull();
    const [h, p] = parts(token);
    const forged = `${h}.${p}.${hs256(`${h}.${p}`, 'wrong')}`;
    now = t0;
    expect(clocked.verifyAccess(forged)).toBeNull();
    expect(clocked.verifyAccess(forged)).toBeNull();
  });

  it('refuses alg tricks: none, HS512, RS256, a header with extra fields, and a correctly re-signed other header', () => {
    const p = parts(good)[1];
    const headers = [
      { alg: 'none', typ: 'JWT' },
      { alg: 'None' },
      { alg: 'HS512', typ: 'JWT' },
      { alg: 'RS256', typ: 'JWT' },
      { alg: 'HS256', typ: 'JWT', kid: '../../dev/null' },
      { typ: 'JWT', alg: 'HS256' },
      { alg: 'HS256' },
    ];
    for (const header of headers) {
      const h = b64(header);
      expect(tokens.verifyAccess(`${h}.${p}.`)).toBeNull();
      // Even signed with the real secret (as a key-confusion attack would), only the one header passes.
      expect(tokens.verifyAccess(`${h}.${p}.${hs256(`${h}.${p}`)}`)).toBeNull();
    }
  });

  it('refuses malformed tokens without throwing', () => {
    const [h, p, s] = parts(good);
    const bad = [
      '',
      'a',
      'a.b',
      `${h}.${p}`,
      `${h}.${p}.${s}.extra`,
      `${h}..${s}`,
      `${h}.${b64('not json')}.${hs256(`${h}.${b64('not json')}`)}`,
      `${h}.${b64({ sub: 'x', fam: 'f', exp: 9e9 })}.${hs256(`${h}.${b64({ sub: 'x', fam: 'f', exp: 9e9 })}`)}`,
      `${h}.${b64({ sub: '1', exp: 9e9 })}.${hs256(`${h}.${b64({ sub: '1', exp: 9e9 })}`)}`,
      `${h}.${b64({ sub: '1', fam: 'f', exp: '9e9' })}.${hs256(`${h}.${b64({ sub: '1', fam: 'f', exp: '9e9' })}`)}`,
      '\u0000.\u0000.\u0000',
    ];
    for (const token of bad) expect(tokens.verifyAccess(token)).toBeNull();
  });

  it('binds CSRF tokens to the family and the secret', () => {
    const csrf = tokens.csrfFor(claims.familyId);
    expect(tokens.csrfMatches(claims.familyId, csrf)).toBe(true);
    expect(tokens.csrfMatches('2b1f0a3c-0000-4000-8000-000000000002', csrf)).toBe(false);
    expect(
      new TokenService('another-secret-that-is-long-enough-987654').csrfMatches(claims.familyId, csrf),
    ).toBe(false);
    expect(tokens.csrfMatches(claims.familyId, undefined)).toBe(false);
    expect(tokens.csrfMatches(claims.familyId, `${csrf}x`)).toBe(false);
  });
});
