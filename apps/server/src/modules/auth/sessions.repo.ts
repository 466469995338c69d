import { and, count, eq, gt, isNull, lt, min, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { loginFailures, passwordResetTokens, refreshTokens } from '../../db/schema.js';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

/** Refresh-token families, password-reset tokens and failed-login counts. */
export class SessionsRepo {
  // Runs on every authenticated request (when not cached), planned once per connection.
  private readonly liveFamily;

  constructor(private readonly db: Executor) {
    this.liveFamily = this.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.familyId, sql.placeholder('familyId')),
          eq(refreshTokens.userId, sql.placeholder('userId')),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, sql`now()`),
        ),
      )
      .limit(1)
      .prepare('refresh_family_live');
  }

  /** The same repo on a transaction. */
  with(tx: Executor): SessionsRepo {
    return new SessionsRepo(tx);
  }

  /** Whether the family (one login) of this user still has an unrevoked, unexpired token. */
  async familyIsLive(familyId: string, userId: number): Promise<boolean> {
    const rows = await this.liveFamily.execute({ familyId, userId });
    return rows.length > 0;
  }

  async addRefreshToken(t: { userId: number; familyId: string; tokenHash: string; expiresAt: Date }) {
    await this.db.insert(refreshTokens).values(t);
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
    return row;
  }

  /** Marks the token rotated unless it already was; false means someone used it first (reuse). */
  async markRotated(id: number): Promise<boolean> {
    const rows = await this.db
      .update(refreshTokens)
      .set({ rotatedAt: new Date() })
      .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    return rows.length === 1;
  }

  async revokeFamily(familyId: string) {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  async revokeAllOfUser(userId: number) {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }

  async addResetToken(t: { userId: number; tokenHash: string; expiresAt: Date }) {
    await this.db.insert(passwordResetTokens).values(t);
  }

  /** The user of an unused, unexpired reset token, without using it. */
  async resetTokenUser(tokenHash: string, now: Date): Promise<number | undefined> {
    const [row] = await this.db
      .select({ userId: passwordResetTokens.userId })
      .from(passwordResetTokens)
      .where(
        and(
          eq(passwordResetTokens.tokenHash, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      );
    return row?.userId;
  }

  /** Uses the token once: returns its user only if it was unused and unexpired. */
  async consumeResetToken(tokenHash: string, now: Date): Promise<number | undefined> {
    const [row] = await this.db
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    return row?.userId;
  }

  async invalidateResetTokens(userId: number, now: Date) {
    await this.db
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  }

  async recordLoginFailure(accountKey: string) {
    await this.db.insert(loginFailures).values({ accountKey });
  }

  /** Failures in the window and when the oldest of them leaves it. */
  async loginFailuresSince(accountKey: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const [row] = await this.db
      .select({ count: count(), oldest: min(loginFailures.createdAt) })
      .from(loginFailures)
      .where(and(eq(loginFailures.accountKey, accountKey), gt(loginFailures.createdAt, since)));
    return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
  }

  async clearLoginFailures(accountKey: string, before: Date) {
    await this.db
      .delete(loginFailures)
      .where(and(eq(loginFailures.accountKey, accountKey), lt(loginFailures.createdAt, before)));
  }

  /** Housekeeping: forget old failures and dead tokens. */
  async prune(now: Date) {
    await this.db
      .delete(loginFailures)
      .where(lt(loginFailures.createdAt, sql`${now}::timestamptz - interval '1 day'`));
    await this.db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, now));
    await this.db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, now));
  }
}
