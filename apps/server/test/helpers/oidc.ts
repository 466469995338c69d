/// <reference path="./oidc-provider.d.ts" />
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { TestClient } from './client.js';

/** What the test provider says about a person (its claims); `sub` is the map's key. */
export type ProviderAccount = {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  groups?: string[];
  locale?: string;
};

export const CONFIDENTIAL = { id: 'evdra', secret: 'evdra-secret-0123456789abcdef' };
export const PUBLIC_CLIENT = 'evdra-public';

/**
 * A real OpenID provider (panva's oidc-provider) on a loopback port: the code flow with PKCE
 * required, the claims of `accounts`, and a sign-in page that signs in as `as` at once (the test
 * plays the person). Claims beyond `sub` come from userinfo, as many providers do.
 */
export async function startTestProvider({ appUrl = 'http://evdra.test', port = 0 } = {}) {
  const accounts = new Map<string, ProviderAccount>();
  const state = { as: '' };
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirect_uris = [`${appUrl}/api/auth/oidc/callback`];
  const post_logout_redirect_uris = [`${appUrl}/login`];
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CONFIDENTIAL.id,
        client_secret: CONFIDENTIAL.secret,
        token_endpoint_auth_method: 'client_secret_post',
        redirect_uris,
        post_logout_redirect_uris,
      },
      {
        client_id: PUBLIC_CLIENT,
        token_endpoint_auth_method: 'none',
        redirect_uris,
        post_logout_redirect_uris,
      },
    ],
    pkce: { required: () => true },
    // Its own signing key and lifetimes (seconds), instead of the development defaults it warns about.
    jwks: {
      keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })],
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'locale'],
      groups: ['groups'],
    },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-provider-cookie-key'] },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
    // A first-party client: every scope asked for is granted, no consent page.
    // biome-ignore lint/suspicious/noExplicitAny: oidc-provider's context
    loadExistingGrant: async (ctx: any) => {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope(ctx.oidc.params.scope);
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      provider
        .interactionFinished(
          req,
          res,
          // No one to sign in as: the person cancels at the provider.
          state.as
            ? { login: { accountId: state.as } }
            : { error: 'access_denied', error_description: 'The person cancelled.' },
          { mergeWithLastSubmission: false },
        )
        .catch((err) => {
          res.statusCode = 500;
          res.end(String(err));
        });
      return;
    }
    handle(req, res);
  });

  /**
   * One sign-in in a fresh provider session, as the browser `browser` (its app cookies): start at
   * the app, sign in at the provider as `sub`, come back to the app's callback. `tamper` changes
   * the authorization request on its way to the provider. `sub` empty: the person cancels there.
   */
  async function signIn(browser: TestClient, sub: string, tamper?: (url: URL) => void) {
    const start = await browser.get('/api/auth/oidc/start');
    if (start.statusCode !== 302) throw new Error(`start: ${start.statusCode} ${start.body}`);
    const authorize = new URL(String(start.headers.location));
    tamper?.(authorize);
    const callback = await throughProvider(authorize.href, sub);
    const back = await browser.get(callback.pathname + callback.search);
    return { start, authorize, callback, back };
  }

  /** Follows the provider's redirects (with its cookies) until it sends the browser back to the app. */
  async function throughProvider(url: string, sub: string): Promise<URL> {
    state.as = sub;
    const jar = new Map<string, string>();
    let next = url;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(next, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const at = pair?.indexOf('=') ?? -1;
        if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
      const target = new URL(location, next);
      if (target.origin === new URL(appUrl).origin) return target;
      next = target.href;
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    accounts,
    /** Who the provider's sign-in page signs in as next (a browser test sets it; '' cancels). */
    signInAs: (sub: string) => {
      state.as = sub;
    },
    signIn,
    throughProvider,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
