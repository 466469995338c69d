import { randomUUID } from 'node:crypto';
import { type LoginBody, REFRESH_TOKEN_TTL_MS, RESET_TOKEN_TTL_MS, type RegisterBody } from '@evdra/domain';
import { AppError } from '../../lib/errors.js';
import type { IssuedSession, Principal } from '../../lib/session.js';
import type { Mailer } from '../../mail/mailer.js';
import { passwordResetMail } from '../../mail/templates.js';
import type { AuthState, UserRow, UsersService } from '../users/users.service.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import type { SessionFamilyCache } from './session-cache.js';
import type { SessionsRepo } from './sessions.repo.js';
import { type AccessClaims, hashToken, newOpaqueToken, type TokenService } from './tokens.js';

export type { IssuedSession, Principal };

const FAILURE_WINDOW_MS = 15 * 60 * 1000;

type Deps = {
  users: UsersService;
  sessions: SessionsRepo;
  tokens: TokenService;
  /** Per-request check that the login was not ended (logout, revocation) on any replica. */
  families?: SessionFamilyCache;
  mailer: Mailer;
  publicUrl: string;
  loginFailuresPer15Min: number;
  now?: () => Date;
};

/** Accounts and sessions: registration, login, refresh rotation, logout, password reset. */
export class AuthService {
  private readonly now: () => Date;

  constructor(private readonly d: Deps) {
    this.now = d.now ?? (() => new Date());
  }

  async register(body: RegisterBody): Promise<{ user: UserRow; session: IssuedSession }> {
    const user = await this.d.users.register({ ...body, language: body.language ?? 'en' });
    return { user, session: await this.issue(user) };
  }

  async login(body: LoginBody): Promise<{ user: UserRow; session: IssuedSession }> {
    const found = await this.d.users.findByLogin(body.username);
    const accountKey = found ? `user:${found.id}` : `login:${body.username.trim().toLowerCase()}`;
    await this.assertNotLockedOut(accountKey);
    const ok = await verifyPassword(found?.passwordHash ?? (await dummyPasswordHash()), body.password);
    if (!found || !ok) {
      await this.d.sessions.recordLoginFailure(accountKey);
      throw new AppError(401, 'INVALID_CREDENTIALS', 'Wrong username or password.');
    }
    assertMayLogIn(found);
    await this.d.sessions.clearLoginFailures(accountKey, this.now());
    return { user: found, session: await this.issue(found) };
  }

  /**
   * A session for a user another way proved (OpenID Connect, issue 53): the same cookies, refresh
   * and logout as a password login. 403 for a suspended or pending account.
   */
  async startSession(user: UserRow, familyId: string = randomUUID()): Promise<IssuedSession> {
    assertMayLogIn(user);
    return this.issue(user, familyId);
  }

  /**
   * The user's local password, proven once (linking a provider's account): counts failures and
   * locks out as a login does. 401 INVALID_CREDENTIALS, 429 RATE_LIMITED.
   */
  async provePassword(user: UserRow, password: string): Promise<void> {
    const accountKey = `user:${user.id}`;
    await this.assertNotLockedOut(accountKey);
    if (!(await verifyPassword(user.passwordHash, password))) {
      await this.d.sessions.recordLoginFailure(accountKey);
      throw new AppError(401, 'INVALID_CREDENTIALS', 'Wrong username or password.');
    }
    await this.d.sessions.clearLoginFailures(accountKey, this.now());
  }

  /** Rotates the refresh token; a token used twice revokes its whole family. */
  async refresh(refreshToken: string | undefined): Promise<{ user: UserRow; session: IssuedSession }> {
    const expired = () => new AppError(401, 'SESSION_EXPIRED', 'Session expired. Please log in again.');
    if (!refreshToken) throw expired();
    const row = await this.d.sessions.findRefreshToken(hashToken(refreshToken));
    if (!row || row.revokedAt || row.expiresAt <= this.now()) throw expired();
    if (row.rotatedAt || !(await this.d.sessions.markRotated(row.id))) {
      await this.revokeFamily(row.familyId);
      throw expired();
    }
    const user = await this.d.users.findById(row.userId);
    if (user?.status !== 'Active') {
      await this.revokeFamily(row.familyId);
      throw expired();
    }
    return { user, session: await this.issue(user, row.familyId, row.expiresAt) };
  }

  async logout(familyId: string | undefined) {
    if (familyId) await this.revokeFamily(familyId);
  }

  /** Ends a login: its refresh tokens, and (through the family check) its access tokens, at once. */
  private async revokeFamily(familyId: string) {
    await this.d.sessions.revokeFamily(familyId);
    this.d.families?.forgetFamily(familyId);
  }

  /** True when `password` is the user's current password (argon2 verify). */
  async passwordMatches(userId: number, password: string): Promise<boolean> {
    const user = await this.d.users.findById(userId);
    return !!user && (await verifyPassword(user.passwordHash, password));
  }

  /** Forgets every login of a user at once (an account just deleted: its refresh tokens went with it). */
  forgetUser(userId: number) {
    this.d.families?.forgetUser(userId);
  }

  /** Family of a refresh token that is still live, so logout can work after the access token expired. */
  async liveFamilyOf(refreshToken: string | undefined): Promise<string | undefined> {
    if (!refreshToken) return undefined;
    const row = await this.d.sessions.findRefreshToken(hashToken(refreshToken));
    return row && !row.revokedAt ? row.familyId : undefined;
  }

  /**
   * Checks an access token against the user's current state: gone, suspended or reset sessions fail.
   * Answers at once when this process has both the user's state and the session's cached (nearly
   * every request); a promise only when the database must be asked, so the common case pays no
   * promise or microtask.
   */
  authenticate(accessToken: string | undefined): Principal | null | Promise<Principal | null> {
    if (!accessToken) return null;
    const claims = this.d.tokens.verifyAccess(accessToken);
    if (!claims) return null;
    const user = this.d.users.knownAuthState(claims.userId);
    if (!user) return this.authenticateFromDatabase(claims);
    if (!isCurrent(claims, user.state)) return null;
    const live = this.d.families ? this.d.families.knownLive(claims.familyId, claims.userId) : true;
    if (live === undefined) return this.authenticateFromDatabase(claims);
    return live ? principal(claims, user.state) : null;
  }

  private async authenticateFromDatabase(claims: AccessClaims): Promise<Principal | null> {
    const user = await this.d.users.authState(claims.userId);
    if (!isCurrent(claims, user)) return null;
    if (this.d.families && !(await this.d.families.isLive(claims.familyId, user.id))) return null;
    return principal(claims, user);
  }

  /** Same answer whether or not the address exists; mails a single-use link valid one hour. */
  async forgotPassword(email: string) {
    const user = await this.d.users.findByEmail(email);
    if (!user || user.status === 'Suspended') return;
    const { token, hash } = newOpaqueToken();
    await this.d.sessions.addResetToken({
      userId: user.id,
      tokenHash: hash,
      expiresAt: new Date(this.now().getTime() + RESET_TOKEN_TTL_MS),
    });
    const link = `${this.d.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await this.d.mailer.send(passwordResetMail(user.email, user.username, user.language, link));
  }

  /**
   * Sets the new password and ends every session of that user, in one transaction: the token is
   * used, the password and session epoch change, every refresh token and reset link dies, and the
   * login-failure count is cleared, or nothing happens.
   */
  async resetPassword(token: string, password: string) {
    const now = this.now();
    const tokenHash = hashToken(token);
    const invalid = () =>
      new AppError(400, 'INVALID_RESET_TOKEN', 'This reset link is invalid, used or expired.');
    // Hash (slow) before the transaction, so it holds no locks meanwhile.
    if (!(await this.d.sessions.resetTokenUser(tokenHash, now))) throw invalid();
    const passwordHash = await hashPassword(password);
    const userId = await this.d.users.transaction(async (users, tx) => {
      const sessions = this.d.sessions.with(tx);
      const id = await sessions.consumeResetToken(tokenHash, now);
      if (!id) return undefined;
      await users.replacePasswordHash(id, passwordHash);
      await sessions.revokeAllOfUser(id);
      await sessions.invalidateResetTokens(id, now);
      await sessions.clearLoginFailures(`user:${id}`, now);
      return id;
    });
    if (!userId) throw invalid();
    this.d.families?.forgetUser(userId);
  }

  private async issue(
    user: UserRow,
    familyId: string = randomUUID(),
    familyExpiry?: Date,
  ): Promise<IssuedSession> {
    const refreshExpiresAt = familyExpiry ?? new Date(this.now().getTime() + REFRESH_TOKEN_TTL_MS);
    const { token, hash } = newOpaqueToken();
    await this.d.sessions.addRefreshToken({
      userId: user.id,
      familyId,
      tokenHash: hash,
      expiresAt: refreshExpiresAt,
    });
    const accessToken = this.d.tokens.signAccess({
      userId: user.id,
      role: user.role,
      familyId,
      epoch: user.sessionEpoch,
    });
    return { accessToken, refreshToken: token, refreshExpiresAt, csrfToken: this.d.tokens.csrfFor(familyId) };
  }

  private async assertNotLockedOut(accountKey: string) {
    const since = new Date(this.now().getTime() - FAILURE_WINDOW_MS);
    const { count, oldest } = await this.d.sessions.loginFailuresSince(accountKey, since);
    if (count < this.d.loginFailuresPer15Min) return;
    const retryAfter = oldest
      ? Math.max(1, Math.ceil((oldest.getTime() + FAILURE_WINDOW_MS - this.now().getTime()) / 1000))
      : 900;
    throw new AppError(
      429,
      'RATE_LIMITED',
      'Too many failed logins for this account. Please wait and try again.',
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }
}

export function assertMayLogIn(user: UserRow) {
  if (user.status === 'Suspended') throw new AppError(403, 'ACCOUNT_SUSPENDED', 'This account is suspended.');
  if (user.status === 'Pending')
    throw new AppError(403, 'ACCOUNT_PENDING', 'This account is pending approval.');
}

/** The token's user is active and the token belongs to their current session epoch. */
const isCurrent = (claims: AccessClaims, user: AuthState | undefined): user is AuthState =>
  user?.status === 'Active' && user.sessionEpoch === claims.epoch;

const principal = (claims: AccessClaims, user: AuthState): Principal => ({
  userId: user.id,
  role: user.role,
  familyId: claims.familyId,
});
