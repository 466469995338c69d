import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { apiTokens, users } from '../../db/schema.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** Personal API tokens, kept as the SHA-256 of the token. */
export class ApiTokensRepo {
  constructor(private readonly db: Executor) {}

  async insert(values: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
    const [row] = await this.db.insert(apiTokens).values(values).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  list(userId: number): Promise<ApiTokenRow[]> {
    return this.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.userId, userId))
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  }

  /** Deletes the user's token; false when they have none with this id. */
  async remove(userId: number, id: number): Promise<boolean> {
    const gone = await this.db
      .delete(apiTokens)
      .where(and(eq(apiTokens.userId, userId), eq(apiTokens.id, id)))
      .returning({ id: apiTokens.id });
    return gone.length > 0;
  }

  /** The token with this hash and its user's state, or undefined. */
  async findByHash(hash: string) {
    const [row] = await this.db
      .select({
        id: apiTokens.id,
        userId: apiTokens.userId,
        scope: apiTokens.scope,
        expiresAt: apiTokens.expiresAt,
        lastUsedAt: apiTokens.lastUsedAt,
        lastUsedIp: apiTokens.lastUsedIp,
        role: users.role,
        status: users.status,
      })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.tokenHash, hash));
    return row;
  }

  async used(id: number, at: Date, ip: string) {
    await this.db.update(apiTokens).set({ lastUsedAt: at, lastUsedIp: ip }).where(eq(apiTokens.id, id));
  }
}
