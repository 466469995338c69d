import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcConfig } from '../src/config.js';
import { oidcIdentities, oidcLoginStates, users } from '../src/db/schema.js';
import { OidcRepo } from '../src/modules/auth/oidc.repo.js';
import { OidcService } from '../src/modules/auth/oidc.service.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { UsersRepo } from '../src/modules/users/users.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, setCookie } from './helpers/expect.js';
import { CONFIDENTIAL, PUBLIC_CLIENT, startTestProvider } from './helpers/oidc.js';

/*
 * Sign in with OpenID Connect (issue 53) against a real provider (oidc-provider) on loopback.
 * The issuer is the administrator's configuration, not a user's URL, so it does not go through the
 * outbound guard (no OUTBOUND_ALLOW_LOCAL here); plain http is allowed because OIDC_ISSUER says http.
 *
 * `open`: auto-register on, admin group, provider logout, a confidential client.
 * `closed`: auto-register off, password login off, a public client.
 */
let provider: Awaited<ReturnType<typeof startTestProvider>>;
let open: TestApp;
let closed: TestApp;
let localAdmin: Awaited<ReturnType<typeof registered>>;

beforeAll(async () => {
  provider = await startTestProvider();
  const common = { OIDC_ISSUER: provider.issuer, OIDC_SCOPES: 'openid email profile groups' };
  [open, closed] = await Promise.all([
    createTestApp({
      ...common,
      OIDC_CLIENT_ID: CONFIDENTIAL.id,
      OIDC_CLIENT_SECRET: CONFIDENTIAL.secret,
      OIDC_BUTTON_TEXT: 'Authentik',
      OIDC_AUTO_REGISTER: 'true',
      OIDC_ADMIN_GROUP: 'evdra-admins',
      OIDC_END_SESSION: 'true',
    }),
    createTestApp({ ...common, OIDC_CLIENT_ID: PUBLIC_CLIENT, PASSWORD_LOGIN: 'false' }),
  ]);
  // The first account (ADMIN) is a local one, so an administrator remains when a group member leaves.
  localAdmin = await registered(open.app, 'admin');
});
afterAll(async () => {
  await Promise.all([open?.close(), closed?.close()]);
  await provider?.close();
});

let n = 0;
/** A person at the provider, with a unique subject and e-mail. */
function person(claims: { email_verified?: boolean; groups?: string[]; email?: string } = {}) {
  n += 1;
  const sub = `person-${n}-${Math.random().toString(36).slice(2, 8)}`;
  provider.accounts.set(sub, {
    email: claims.email ?? `${sub}@idp.example`,
    email_verified: claims.email_verified ?? true,
    preferred_username: sub.replace(/-/g, '_'),
    groups: claims.groups ?? [],
  });
  return sub;
}

const refusal = (res: { statusCode: number; headers: Record<string, unknown> }) => {
  expect(res.statusCode).toBe(302);
  const to = new URL(String(res.headers.location), 'http://evdra.test');
  expect(to.pathname).toBe('/oidc/refused');
  return to.searchParams.get('reason');
};

const signedIn = (res: { statusCode: number; headers: Record<string, unknown> }) => {
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe('/oidc/complete');
};

describe('GET /api/auth/providers', () => {
  it('names the button and says whether password login is on', async () => {
    expect((await new TestClient(open.app).get('/api/auth/providers')).data).toEqual({
      oidc: { buttonText: 'Authentik' },
      passwordLogin: true,
    });
    expect((await new TestClient(closed.app).get('/api/auth/providers')).data).toEqual({
      oidc: { buttonText: 'OpenID Connect' },
      passwordLogin: false,
    });
  });

  it('a provider that cannot be reached: the refusal reason says so, no state is kept', async () => {
    // The same service the app runs, on the open app's database, with an issuer nothing answers
    // at (port 9 on loopback: refused at once). Without OIDC_ISSUER at all: auth.test.ts.
    const service = new OidcService({
      config: { ...(open.config.oidc as OidcConfig), issuer: 'http://127.0.0.1:9' },
      publicUrl: open.config.publicUrl,
      repo: new OidcRepo(open.database.db),
      users: new UsersRepo(open.database.db),
      auth: undefined as never, // not reached: nothing signs in
      secret: open.config.jwtSecret,
      log: open.app.log,
      now: () => new Date(),
    });
    const before = await open.database.db.select().from(oidcLoginStates);
    expect(await service.start()).toEqual({ refused: 'unavailable' });
    expect(await open.database.db.select().from(oidcLoginStates)).toEqual(before);
  });
});

describe('the authorization request', () => {
  it('uses the code flow with S256 PKCE, a state and a nonce; the state cookie is HttpOnly and short-lived', async () => {
    const res = await new TestClient(open.app).get('/api/auth/oidc/start');
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(url.origin).toBe(provider.issuer);
    const p = url.searchParams;
    expect(p.get('response_type')).toBe('code');
    expect(p.get('client_id')).toBe(CONFIDENTIAL.id);
    expect(p.get('redirect_uri')).toBe('http://evdra.test/api/auth/oidc/callback');
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(p.get('nonce')?.length).toBeGreaterThanOrEqual(32);
    const cookie = setCookie(res, 'evdra_oidc_state');
    expect(cookie).toContain(`evdra_oidc_state=${p.get('state')}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/oidc(;|$)/);
    expect(cookie).toMatch(/Max-Age=600(;|$)/);
  });

  it('a code the provider issued for another PKCE challenge is refused: the verifier is checked', async () => {
    const sub = person();
    const browser = new TestClient(open.app);
    const other = createHash('sha256').update('another verifier, not the server one').digest('base64url');
    const { back } = await provider.signIn(browser, sub, (url) =>
      url.searchParams.set('code_challenge', other),
    );
    expect(refusal(back)).toBe('failed');
    expect(setCookie(back, 'evdra_access')).toBeUndefined();
    expect((await browser.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('a replayed callback (its state already used) is refused', async () => {
    const browser = new TestClient(open.app);
    const { back, callback } = await provider.signIn(browser, person());
    signedIn(back);
    const attacker = new TestClient(open.app);
    attacker.cookies.set('evdra_oidc_state', {
      value: callback.searchParams.get('state') ?? '',
      path: '/api/auth/oidc',
    });
    const replay = await attacker.get(callback.pathname + callback.search);
    expect(refusal(replay)).toBe('failed');
    expect(setCookie(replay, 'evdra_access')).toBeUndefined();
  });

  it('a callback in a browser that did not start the sign-in (no state cookie) is refused', async () => {
    const browser = new TestClient(open.app);
    const start = await browser.get('/api/auth/oidc/start');
    const callback = await provider.throughProvider(String(start.headers.location), person());
    const elsewhere = await new TestClient(open.app).get(callback.pathname + callback.search);
    expect(refusal(elsewhere)).toBe('failed');
    expect(setCookie(elsewhere, 'evdra_access')).toBeUndefined();
  });

  it('an ID token with another nonce is refused', async () => {
    const browser = new TestClient(open.app);
    const { back } = await provider.signIn(browser, person(), (url) =>
      url.searchParams.set('nonce', 'a-nonce-this-server-never-made-0123456789'),
    );
    expect(refusal(back)).toBe('failed');
    expect(setCookie(back, 'evdra_access')).toBeUndefined();
  });
});

describe('accounts', () => {
  it('auto-register on: an unknown person gets an account and the app’s own session', async () => {
    const sub = person();
    const browser = new TestClient(open.app);
    const { back } = await provider.signIn(browser, sub);
    signedIn(back);
    expect(setCookie(back, 'evdra_access')).toMatch(/HttpOnly/i);
    expect(setCookie(back, 'evdra_refresh')).toMatch(/Path=\/api\/auth(;|$)/);
    const me = await browser.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.data).toMatchObject({
      username: sub.replace(/-/g, '_'),
      email: `${sub}@idp.example`,
      role: 'USER',
    });
    // The same cookies, refresh and logout as a password login.
    const refreshed = await browser.post('/api/auth/refresh');
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.data.user.email).toBe(`${sub}@idp.example`);
    // A provider account has no password: logging in with any password fails.
    const login = await new TestClient(open.app).post('/api/auth/login', {
      username: `${sub}@idp.example`,
      password: '!oidc',
    });
    expectError(login, 401, 'INVALID_CREDENTIALS');
  });

  it('auto-register off: an unknown person gets the refusal page, not an account', async () => {
    const sub = person();
    const { back } = await provider.signIn(new TestClient(closed.app), sub);
    expect(refusal(back)).toBe('not-registered');
    const found = await closed.database.db
      .select()
      .from(users)
      .where(eq(users.email, `${sub}@idp.example`));
    expect(found).toEqual([]);
  });

  it('an e-mail change at the provider keeps the same account', async () => {
    const sub = person();
    const first = new TestClient(open.app);
    signedIn((await provider.signIn(first, sub)).back);
    const before = (await first.get('/api/auth/me')).data;
    provider.accounts.set(sub, { ...provider.accounts.get(sub), email: `renamed-${sub}@idp.example` });
    const again = new TestClient(open.app);
    signedIn((await provider.signIn(again, sub)).back);
    const after = (await again.get('/api/auth/me')).data;
    expect(after.id).toBe(before.id);
    const [identity] = await open.database.db
      .select()
      .from(oidcIdentities)
      .where(eq(oidcIdentities.subject, sub));
    expect(identity).toMatchObject({ userId: before.id, email: `renamed-${sub}@idp.example` });
  });

  it('a verified e-mail of a local account links only after its password is proven once', async () => {
    const local = await registered(open.app, 'local');
    const sub = person({ email: local.account.email, email_verified: true });
    const browser = new TestClient(open.app);
    const { back } = await provider.signIn(browser, sub);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/oidc/link');
    expect(setCookie(back, 'evdra_access')).toBeUndefined();
    expect(setCookie(back, 'evdra_oidc_link')).toMatch(/HttpOnly/i);
    // Nothing is linked yet.
    expect(
      await open.database.db.select().from(oidcIdentities).where(eq(oidcIdentities.subject, sub)),
    ).toEqual([]);
    const info = await browser.get('/api/auth/oidc/link');
    expect(info.data).toEqual({ email: local.account.email, username: local.account.username });
    expectError(
      await browser.post('/api/auth/oidc/link', { password: 'not the password' }),
      401,
      'INVALID_CREDENTIALS',
    );
    expectError(
      await new TestClient(open.app).post('/api/auth/oidc/link', { password: local.account.password }),
      400,
      'OIDC_LINK_EXPIRED',
    );
    const linked = await browser.post('/api/auth/oidc/link', { password: local.account.password });
    expect(linked.statusCode).toBe(200);
    expect(linked.data.user.id).toBe(local.user.id);
    expect((await browser.get('/api/auth/me')).data.id).toBe(local.user.id);
    // From now on the provider alone signs in to that account.
    const later = new TestClient(open.app);
    signedIn((await provider.signIn(later, sub)).back);
    expect((await later.get('/api/auth/me')).data.id).toBe(local.user.id);
  });

  it('an unverified e-mail of a local account does not link (nor make a second account)', async () => {
    const local = await registered(open.app, 'unverified');
    const sub = person({ email: local.account.email, email_verified: false });
    const browser = new TestClient(open.app);
    const { back } = await provider.signIn(browser, sub);
    expect(refusal(back)).toBe('email-unverified');
    expect(setCookie(back, 'evdra_oidc_link')).toBeUndefined();
    expectError(
      await browser.post('/api/auth/oidc/link', { password: local.account.password }),
      400,
      'OIDC_LINK_EXPIRED',
    );
    expect(
      await open.database.db.select().from(oidcIdentities).where(eq(oidcIdentities.subject, sub)),
    ).toEqual([]);
  });

  it('OIDC_ADMIN_GROUP: joining the group makes an admin at the next sign-in, leaving it removes the right', async () => {
    const sub = person({ groups: ['family'] });
    const browser = new TestClient(open.app);
    signedIn((await provider.signIn(browser, sub)).back);
    expect((await browser.get('/api/auth/me')).data.role).toBe('USER');
    expectError(await browser.get('/api/admin/users'), 403, 'FORBIDDEN');

    provider.accounts.set(sub, { ...provider.accounts.get(sub), groups: ['family', 'evdra-admins'] });
    const asAdmin = new TestClient(open.app);
    signedIn((await provider.signIn(asAdmin, sub)).back);
    expect((await asAdmin.get('/api/auth/me')).data.role).toBe('ADMIN');
    expect((await asAdmin.get('/api/admin/users')).statusCode).toBe(200);

    provider.accounts.set(sub, { ...provider.accounts.get(sub), groups: ['family'] });
    const demoted = new TestClient(open.app);
    signedIn((await provider.signIn(demoted, sub)).back);
    expect((await demoted.get('/api/auth/me')).data.role).toBe('USER');
    expectError(await demoted.get('/api/admin/users'), 403, 'FORBIDDEN');
    // The local administrator is untouched.
    expect((await localAdmin.client.get('/api/auth/me')).data.role).toBe('ADMIN');
  });
});

describe('refusals', () => {
  it('a sign-in cancelled at the provider gets the refusal page', async () => {
    const { back } = await provider.signIn(new TestClient(open.app), '');
    expect(refusal(back)).toBe('denied');
    expect(setCookie(back, 'evdra_access')).toBeUndefined();
  });

  it('a suspended account is refused, not signed in', async () => {
    const sub = person();
    const browser = new TestClient(open.app);
    signedIn((await provider.signIn(browser, sub)).back);
    const id = (await browser.get('/api/auth/me')).data.id;
    await open.database.db.update(users).set({ status: 'Suspended' }).where(eq(users.id, id));
    const again = await provider.signIn(new TestClient(open.app), sub);
    expect(refusal(again.back)).toBe('suspended');
    expect(setCookie(again.back, 'evdra_access')).toBeUndefined();
  });

  it('auto-register: a taken username gets a number, the e-mail is the provider’s', async () => {
    const local = await registered(open.app, 'taken');
    const sub = person();
    provider.accounts.set(sub, { ...provider.accounts.get(sub), preferred_username: local.account.username });
    const browser = new TestClient(open.app);
    signedIn((await provider.signIn(browser, sub)).back);
    const me = (await browser.get('/api/auth/me')).data;
    expect(me.username).toBe(`${local.account.username}2`);
    expect(me.email).toBe(`${sub}@idp.example`);
    expect(me.id).not.toBe(local.user.id);
  });
});

describe('logout', () => {
  it("after a provider sign-in, answers the provider's end-session URL (OIDC_END_SESSION)", async () => {
    const browser = new TestClient(open.app);
    signedIn((await provider.signIn(browser, person())).back);
    await browser.post('/api/auth/refresh'); // the CSRF token, as the web's /oidc/complete page gets it
    const res = await browser.post('/api/auth/logout');
    expect(res.statusCode).toBe(200);
    const url = new URL(res.data.endSessionUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe('http://evdra.test/login');
    expect((await browser.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('after a password login, stays 204 as before', async () => {
    const local = await registered(open.app, 'pw');
    expect((await local.client.post('/api/auth/logout')).statusCode).toBe(204);
  });
});

describe('PASSWORD_LOGIN=false', () => {
  it('refuses password login and registration with 403 PASSWORD_LOGIN_DISABLED', async () => {
    const client = new TestClient(closed.app);
    expectError(
      await client.post('/api/auth/login', { username: 'someone', password: 'whatever 1' }),
      403,
      'PASSWORD_LOGIN_DISABLED',
    );
    const register = await client.post('/api/auth/register', {
      username: 'newcomer',
      email: 'newcomer@example.com',
      password: 'correct horse 1',
      gdprConsent: true,
    });
    expectError(register, 403, 'PASSWORD_LOGIN_DISABLED');
    expect(register.data.message).toMatch(/Password login is turned off/);
  });

  it('a local account (made by an admin) still signs in through the provider with a public client', async () => {
    const [row] = await closed.database.db
      .insert(users)
      .values({
        username: 'existing',
        email: 'existing@example.com',
        passwordHash: await hashPassword('correct horse 1'),
        status: 'Active',
        language: 'en',
      })
      .returning();
    const sub = person({ email: 'existing@example.com' });
    const browser = new TestClient(closed.app);
    const { back } = await provider.signIn(browser, sub);
    expect(back.headers.location).toBe('/oidc/link');
    const linked = await browser.post('/api/auth/oidc/link', { password: 'correct horse 1' });
    expect(linked.statusCode).toBe(200);
    expect(linked.data.user.id).toBe(row?.id);
  });
});
