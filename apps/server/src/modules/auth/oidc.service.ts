import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  countryOfLanguage,
  type Language,
  type MoneyAndUnits,
  moneyAndUnitsForCountry,
  REFRESH_TOKEN_TTL_MS,
  USERNAME_MAX,
  USERNAME_MIN,
} from '@evdra/domain';
import * as client from 'openid-client';
import type { BaseLogger } from 'pino';
import type { OidcConfig } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import type { IssuedSession } from '../../lib/session.js';
import type { UserRow } from '../users/users.service.js';
import type { AuthService } from './auth.service.js';
import type { OidcRepo } from './oidc.repo.js';
import { hashToken } from './tokens.js';

/** Where the provider sends the browser back (register PUBLIC_URL + this path at the provider). */
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
/** How long a sign-in may take at the provider, and a pending link may wait for the password. */
export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000;
/** A provider account has no local password: no password verifies against this (argon2 refuses it). */
const NO_PASSWORD = '!oidc';

/** Why a sign-in through the provider made no session (the web's /oidc/refused page explains each). */
export type OidcRefusal =
  | 'not-registered'
  | 'email-unverified'
  | 'no-email'
  | 'suspended'
  | 'pending'
  | 'denied'
  | 'failed'
  | 'unavailable';

export type OidcOutcome =
  | { kind: 'session'; user: UserRow; session: IssuedSession }
  | { kind: 'link'; pending: string }
  | { kind: 'refused'; reason: OidcRefusal };

/** A provider account waiting to be linked to a local account once its password is proven. */
type PendingLink = {
  iss: string;
  sub: string;
  uid: number;
  email: string;
  /** Admin by the group claim (null: no OIDC_ADMIN_GROUP, the role stays). */
  admin: boolean | null;
  idToken?: string;
  exp: number;
};

/** A user OpenID Connect makes: no password, the first account of the instance becomes ADMIN. */
type NewOidcUser = Pick<
  UserRow,
  'username' | 'email' | 'passwordHash' | 'status' | 'gdprConsent' | 'language'
> &
  MoneyAndUnits;

/**
 * What OIDC needs of the users: app.ts hands it the users repo (a module uses another module's
 * service, never its repo, so the shape is declared here).
 */
export interface OidcUsers {
  findById(id: number): Promise<UserRow | undefined>;
  findByEmail(email: string): Promise<UserRow | undefined>;
  taken(username: string, email: string): Promise<'username' | 'email' | undefined>;
  insertFirstAsAdmin(user: NewOidcUser): Promise<UserRow>;
  update(id: number, changes: { role: UserRow['role'] }): Promise<UserRow | undefined>;
  /** Runs `change` only while another active administrator exists (false: none, nothing changed). */
  withOtherActiveAdmin<T>(
    targetId: number,
    change: (users: Pick<OidcUsers, 'update'>) => Promise<T>,
  ): Promise<T | false>;
}

type Deps = {
  config: OidcConfig;
  publicUrl: string;
  repo: OidcRepo;
  users: OidcUsers;
  auth: AuthService;
  /** Signs the pending-link cookie (the server's JWT secret). */
  secret: string;
  log: Pick<BaseLogger, 'info' | 'warn'>;
  now: () => Date;
};

/**
 * Sign in with OpenID Connect (issue 53), with openid-client: discovery, the authorization code
 * flow with S256 PKCE, state and nonce always checked. The state, nonce and verifier stay in the
 * database (used once, 10 minutes), the browser holds only the state in a cookie, so a callback
 * from another browser or a replayed one is refused. Accounts are linked on (issuer, subject).
 *
 * The issuer is the administrator's configuration, not a user's input, so its requests do not go
 * through the outbound guard: a self-hosted provider often lives on the local network (http://
 * authentik:9000), which the guard would refuse. Plain http is allowed only when OIDC_ISSUER says so.
 */
export class OidcService {
  private discovered?: Promise<client.Configuration>;

  constructor(private readonly d: Deps) {}

  get buttonText(): string {
    return this.d.config.buttonText;
  }

  /** The provider's configuration, discovered once (again after a failure). */
  private configuration(): Promise<client.Configuration> {
    if (!this.discovered) {
      const { issuer, clientId, clientSecret } = this.d.config;
      const insecure = issuer.startsWith('http://');
      this.discovered = client
        .discovery(
          new URL(issuer),
          clientId,
          clientSecret ? { client_secret: clientSecret } : undefined,
          clientSecret ? undefined : client.None(),
          { execute: insecure ? [client.allowInsecureRequests] : [], timeout: 10 },
        )
        .catch((err) => {
          this.discovered = undefined;
          throw err;
        });
    }
    return this.discovered;
  }

  /** The provider's authorization URL for a new sign-in, and its state (the browser's cookie). */
  async start(): Promise<{ url: string; state: string } | { refused: OidcRefusal }> {
    let config: client.Configuration;
    try {
      config = await this.configuration();
    } catch (err) {
      this.d.log.warn({ err }, 'OpenID Connect discovery failed');
      return { refused: 'unavailable' };
    }
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    await this.d.repo.addLoginState({ stateHash: hashToken(state), nonce, codeVerifier });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(),
      scope: this.d.config.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  private redirectUri() {
    return `${this.d.publicUrl}${OIDC_CALLBACK_PATH}`;
  }

  /**
   * The provider's answer: `query` is the callback's query string, `cookieState` the state this
   * browser started with. A session, a link to confirm with the local password, or a refusal.
   */
  async callback(query: string, cookieState: string | undefined): Promise<OidcOutcome> {
    const params = new URLSearchParams(query);
    const state = params.get('state') ?? '';
    // The state is used up whatever happens next: a second callback with it is refused.
    const started = state
      ? await this.d.repo.takeLoginState(
          hashToken(state),
          new Date(this.d.now().getTime() - OIDC_FLOW_TTL_MS),
        )
      : undefined;
    if (!started || !cookieState || !sameText(state, cookieState)) {
      this.d.log.warn('OpenID Connect callback with an unknown, used, expired or foreign state');
      return refused('failed');
    }
    if (params.has('error')) {
      this.d.log.info({ error: params.get('error') }, 'the OpenID provider refused the sign-in');
      return refused(params.get('error') === 'access_denied' ? 'denied' : 'failed');
    }
    let claims: Record<string, unknown>;
    let idToken: string | undefined;
    try {
      const config = await this.configuration();
      const tokens = await client.authorizationCodeGrant(config, new URL(`${this.redirectUri()}?${params}`), {
        pkceCodeVerifier: started.codeVerifier,
        expectedState: state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      const fromIdToken = tokens.claims();
      if (!fromIdToken) return refused('failed');
      idToken = tokens.id_token;
      claims = { ...(await this.userInfo(config, tokens.access_token, fromIdToken.sub)), ...fromIdToken };
    } catch (err) {
      this.d.log.warn({ err }, 'OpenID Connect sign-in failed');
      return refused('failed');
    }
    return this.signIn(claims, idToken);
  }

  /** The userinfo claims (some providers put e-mail and groups only there); none when it fails. */
  private async userInfo(config: client.Configuration, accessToken: string, sub: string) {
    if (!config.serverMetadata().userinfo_endpoint) return {};
    try {
      return { ...(await client.fetchUserInfo(config, accessToken, sub)) };
    } catch (err) {
      this.d.log.warn({ err }, 'OpenID Connect userinfo failed; using the ID token alone');
      return {};
    }
  }

  private async signIn(claims: Record<string, unknown>, idToken: string | undefined): Promise<OidcOutcome> {
    const iss = String(claims.iss);
    const sub = String(claims.sub);
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : undefined;
    const admin = this.isAdmin(claims);
    const identity = await this.d.repo.findIdentity(iss, sub);
    const linked = identity && (await this.d.users.findById(identity.userId));
    if (identity && linked) {
      // Known (issuer, subject): the same account whatever e-mail the provider says now.
      await this.d.repo.touchIdentity(identity.id, email, this.d.now());
      return this.sessionFor(linked, admin, idToken);
    }
    const local = email ? await this.d.users.findByEmail(email) : undefined;
    if (local) {
      if (claims.email_verified !== true) return refused('email-unverified');
      const pending: PendingLink = {
        iss,
        sub,
        uid: local.id,
        email: local.email,
        admin,
        idToken: idToken && idToken.length < 2500 ? idToken : undefined,
        exp: this.d.now().getTime() + OIDC_FLOW_TTL_MS,
      };
      return { kind: 'link', pending: this.sign(pending) };
    }
    if (!this.d.config.autoRegister) return refused('not-registered');
    if (!email) return refused('no-email');
    let user: UserRow;
    try {
      user = await this.register(claims, email);
    } catch (err) {
      this.d.log.warn({ err }, 'OpenID Connect: the new account could not be made');
      return refused('failed');
    }
    if (!(await this.d.repo.addIdentity({ issuer: iss, subject: sub, userId: user.id, email }))) {
      return refused('failed');
    }
    return this.sessionFor(user, admin, idToken);
  }

  /** A new account for a provider's user: its username from the claims, made unique; no password. */
  private async register(claims: Record<string, unknown>, email: string): Promise<UserRow> {
    const base = usernameFrom(claims, email);
    const locale = typeof claims.locale === 'string' ? claims.locale.slice(0, 2).toLowerCase() : '';
    const language: Language = locale === 'ro' || locale === 'es' ? locale : 'en';
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? '' : String(n);
      const username = `${base.slice(0, USERNAME_MAX - suffix.length)}${suffix}`;
      if ((await this.d.users.taken(username, email)) === 'username' && n < 100) continue;
      return this.d.users.insertFirstAsAdmin({
        username,
        email,
        passwordHash: NO_PASSWORD,
        status: 'Active',
        gdprConsent: false,
        language,
        ...moneyAndUnitsForCountry(countryOfLanguage(language)),
      });
    }
  }

  /** Member of OIDC_ADMIN_GROUP by OIDC_GROUPS_CLAIM (a list, or one name); null when no group is set. */
  private isAdmin(claims: Record<string, unknown>): boolean | null {
    const group = this.d.config.adminGroup;
    if (!group) return null;
    const value = claims[this.d.config.groupsClaim];
    const groups = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    return groups.includes(group);
  }

  /** Applies the admin group, then makes the session (a refusal for a suspended or pending account). */
  private async sessionFor(user: UserRow, admin: boolean | null, idToken?: string): Promise<OidcOutcome> {
    if (user.status !== 'Active') return refused(user.status === 'Suspended' ? 'suspended' : 'pending');
    const current = await this.applyAdminGroup(user, admin);
    const familyId = randomUUID();
    let session: IssuedSession;
    try {
      session = await this.d.auth.startSession(current, familyId);
    } catch (err) {
      if (err instanceof AppError && err.code === 'ACCOUNT_SUSPENDED') return refused('suspended');
      if (err instanceof AppError && err.code === 'ACCOUNT_PENDING') return refused('pending');
      throw err;
    }
    if (idToken) await this.d.repo.addSession({ familyId, userId: current.id, idToken });
    return { kind: 'session', user: current, session };
  }

  /** Grants or removes ADMIN by the group claim; the last active administrator keeps the right. */
  private async applyAdminGroup(user: UserRow, admin: boolean | null): Promise<UserRow> {
    if (admin === null || (user.role === 'ADMIN') === admin) return user;
    if (admin) return (await this.d.users.update(user.id, { role: 'ADMIN' })) ?? user;
    const result = await this.d.users.withOtherActiveAdmin(user.id, (repo) =>
      repo.update(user.id, { role: 'USER' }),
    );
    if (result === false) {
      this.d.log.warn(
        { userId: user.id },
        'OpenID Connect: the last active administrator left OIDC_ADMIN_GROUP but stays an administrator',
      );
      return user;
    }
    return result ?? user;
  }

  /** The pending link in this cookie: the e-mail and username it would join (undefined: none, or expired). */
  async pendingLink(cookie: string | undefined): Promise<{ email: string; username: string } | undefined> {
    const pending = this.verify(cookie);
    const user = pending && (await this.d.users.findById(pending.uid));
    return user ? { email: user.email, username: user.username } : undefined;
  }

  /**
   * Links the provider's account to the local one once its password is proven, then signs in.
   * 400 OIDC_LINK_EXPIRED without a live pending link; 401/429 as a login for a wrong password.
   */
  async link(
    cookie: string | undefined,
    password: string,
  ): Promise<{ user: UserRow; session: IssuedSession }> {
    const pending = this.verify(cookie);
    const user = pending && (await this.d.users.findById(pending.uid));
    if (!pending || !user) {
      throw new AppError(400, 'OIDC_LINK_EXPIRED', 'This sign-in has expired. Please sign in again.');
    }
    await this.d.auth.provePassword(user, password);
    await this.d.repo.addIdentity({
      issuer: pending.iss,
      subject: pending.sub,
      userId: user.id,
      email: pending.email,
    });
    const outcome = await this.sessionFor(user, pending.admin, pending.idToken);
    if (outcome.kind === 'session') return outcome;
    const reason = outcome.kind === 'refused' ? outcome.reason : 'failed';
    if (reason === 'suspended') throw new AppError(403, 'ACCOUNT_SUSPENDED', 'This account is suspended.');
    throw new AppError(403, 'ACCOUNT_PENDING', 'This account is pending approval.');
  }

  /**
   * Where to end the provider's session after logging out of a login made through it (OIDC_END_SESSION
   * and an end_session_endpoint); undefined otherwise. The login's ID token is forgotten either way.
   */
  async endSessionUrl(familyId: string | undefined): Promise<string | undefined> {
    if (!familyId) return undefined;
    const idToken = await this.d.repo.takeSession(familyId);
    if (!idToken || !this.d.config.endSession) return undefined;
    try {
      const config = await this.configuration();
      if (!config.serverMetadata().end_session_endpoint) return undefined;
      return client.buildEndSessionUrl(config, {
        id_token_hint: idToken,
        post_logout_redirect_uri: `${this.d.publicUrl}/login`,
      }).href;
    } catch (err) {
      this.d.log.warn({ err }, 'OpenID Connect: no end-session URL');
      return undefined;
    }
  }

  /** Housekeeping: sign-ins never finished, ID tokens of logins that ended long ago. */
  prune(now: Date) {
    return this.d.repo.prune(
      new Date(now.getTime() - OIDC_FLOW_TTL_MS),
      new Date(now.getTime() - REFRESH_TOKEN_TTL_MS),
    );
  }

  private sign(p: PendingLink): string {
    const body = Buffer.from(JSON.stringify(p)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  private verify(cookie: string | undefined): PendingLink | undefined {
    const [body, mac, extra] = (cookie ?? '').split('.');
    if (!body || !mac || extra !== undefined || !sameText(mac, this.mac(body))) return undefined;
    try {
      const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PendingLink;
      return typeof p.exp === 'number' && p.exp > this.d.now().getTime() ? p : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string) {
    return createHmac('sha256', this.d.secret).update(`oidc-link:${body}`).digest('base64url');
  }
}

const refused = (reason: OidcRefusal): OidcOutcome => ({ kind: 'refused', reason });

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** preferred_username, else the e-mail's local part, cut to what a username may hold. */
function usernameFrom(claims: Record<string, unknown>, email: string): string {
  const wanted = typeof claims.preferred_username === 'string' ? claims.preferred_username : '';
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '').slice(0, USERNAME_MAX);
  let name = clean(wanted);
  if (name.length < USERNAME_MIN) name = clean(email.split('@')[0] ?? '');
  if (name.length < USERNAME_MIN) name = `user${name}`.padEnd(USERNAME_MIN, '0');
  return name;
}
