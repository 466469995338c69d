import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** Idempotency keys per user: claimed by a create request, then holding its answer for replay. */
export class IdempotencyRepo {
  constructor(private readonly db: Executor) {}

  /** Forgets the key if it is older than `expiredBefore`, or unanswered since before `abandonedBefore`. */
  async forgetStale(userId: number, key: string, expiredBefore: Date, abandonedBefore: Date) {
    await this.db
      .delete(idempotencyKeys)
      .where(
        and(
          this.keyIs(userId, key),
          or(
            lt(idempotencyKeys.createdAt, expiredBefore),
            and(isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.createdAt, abandonedBefore)),
          ),
        ),
      );
  }

  /** Takes the key for this request; false when it is already taken. */
  async claim(k: { userId: number; key: string; method: string; path: string; createdAt: Date }) {
    const claimed = await this.db
      .insert(idempotencyKeys)
      .values(k)
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    return claimed.length === 1;
  }

  async find(userId: number, key: string): Promise<IdempotencyRow | undefined> {
    const [row] = await this.db.select().from(idempotencyKeys).where(this.keyIs(userId, key));
    return row;
  }

  async saveAnswer(userId: number, key: string, statusCode: number, body: string) {
    await this.db.update(idempotencyKeys).set({ statusCode, body }).where(this.keyIs(userId, key));
  }

  async forget(userId: number, key: string) {
    await this.db.delete(idempotencyKeys).where(this.keyIs(userId, key));
  }

  /** Forgets every key created before `before`. */
  async prune(before: Date) {
    await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`${before}::timestamptz`));
  }

  private keyIs(userId: number, key: string) {
    return and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  }
}
