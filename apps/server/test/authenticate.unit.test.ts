import { describe, expect, it } from 'vitest';
import { AuthService } from '../src/modules/auth/auth.service.js';
import type { SessionFamilyCache } from '../src/modules/auth/session-cache.js';
import { TokenService } from '../src/modules/auth/tokens.js';
import type { AuthState, UsersService } from '../src/modules/users/users.service.js';

// Unit tests of AuthService.authenticate's two ways: from this process's caches (no promise) and
// from the database. Both refuse exactly the same tokens. The API tests (session-end, sharing, …)
// go through it on every request; these pin what the caches alone must refuse.
const tokens = new TokenService('unit-test-secret-that-is-long-enough-0123', () => new Date());
const familyId = '2b1f0a3c-0000-4000-8000-000000000001';
const active: AuthState = { id: 7, role: 'USER', status: 'Active', sessionEpoch: 3 };
const token = tokens.signAccess({ userId: 7, role: 'USER', familyId, epoch: 3 });

/** An AuthService whose caches know `cached` (or nothing), and whose database holds `stored`. */
function service(opts: {
  cached?: { user: AuthState | undefined; live: boolean };
  stored: { user: AuthState | undefined; live: boolean };
}) {
  const asked: string[] = [];
  const users = {
    knownAuthState: () => (opts.cached ? { state: opts.cached.user } : undefined),
    authState: async () => {
      asked.push('user');
      return opts.stored.user;
    },
  } as unknown as UsersService;
  const families = {
    knownLive: () => opts.cached?.live,
    isLive: async () => {
      asked.push('session');
      return opts.stored.live;
    },
  } as unknown as SessionFamilyCache;
  const auth = new AuthService({ users, families, tokens } as ConstructorParameters<typeof AuthService>[0]);
  return { auth, asked };
}

describe('authenticate', () => {
  it('admits a current session from the caches at once, without asking the database', () => {
    const { auth, asked } = service({
      cached: { user: active, live: true },
      stored: { user: undefined, live: false },
    });
    expect(auth.authenticate(token)).toEqual({ userId: 7, role: 'USER', familyId });
    expect(asked).toEqual([]);
  });

  const refusals: [string, AuthState | undefined, boolean][] = [
    ['a suspended user', { ...active, status: 'Suspended' }, true],
    ['a token of an older session epoch', { ...active, sessionEpoch: 4 }, true],
    ['a user who no longer exists', undefined, true],
    ['an ended session (logout, revocation)', active, false],
  ];
  for (const [what, user, live] of refusals) {
    it(`refuses ${what}, from the caches and from the database alike`, async () => {
      expect(
        service({ cached: { user, live }, stored: { user: active, live: true } }).auth.authenticate(token),
      ).toBe(null);
      const fromDb = service({ stored: { user, live } });
      expect(await fromDb.auth.authenticate(token)).toBe(null);
    });
  }

  it('asks the database when the caches do not know, and never about the session of a refused user', async () => {
    const fresh = service({ stored: { user: active, live: true } });
    const found = fresh.auth.authenticate(token);
    expect(found).toBeInstanceOf(Promise);
    expect(await found).toEqual({ userId: 7, role: 'USER', familyId });
    expect(fresh.asked).toEqual(['user', 'session']);

    const suspended = service({ stored: { user: { ...active, status: 'Suspended' }, live: true } });
    expect(await suspended.auth.authenticate(token)).toBe(null);
    expect(suspended.asked).toEqual(['user']);
  });

  it('refuses a missing, forged or foreign token before any cache or database', () => {
    const { auth, asked } = service({
      cached: { user: active, live: true },
      stored: { user: active, live: true },
    });
    const foreign = new TokenService('another-secret-that-is-long-enough-01234', () => new Date());
    for (const bad of [
      undefined,
      '',
      'x.y.z',
      `${token}x`,
      foreign.signAccess({ userId: 7, role: 'USER', familyId, epoch: 3 }),
    ])
      expect(auth.authenticate(bad)).toBe(null);
    expect(asked).toEqual([]);
  });
});
