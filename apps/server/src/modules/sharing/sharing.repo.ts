import type { Language, ShareRole } from '@evdra/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { uniqueChecked } from '../../db/errors.js';
import { createNotification } from '../../db/notify.js';
import { rowsOf } from '../../db/rows.js';
import { users, vehicleShares } from '../../db/schema.js';
import { accessEndedText, type EndReason } from './share-texts.js';

export type ShareRow = {
  vehicleId: number;
  userId: number;
  username: string;
  role: ShareRole;
  createdAt: Date;
};
export type Person = { id: number; username: string; language: Language };

export type ShareNotification = {
  userId: number;
  vehicleId: number | null;
  type: 'VEHICLE_SHARED' | 'VEHICLE_ACCESS_ENDED';
  title: string;
  content: string;
};

const shareColumns = {
  vehicleId: vehicleShares.vehicleId,
  userId: vehicleShares.userId,
  username: users.username,
  role: vehicleShares.role,
  createdAt: vehicleShares.createdAt,
};

/** The shares of vehicles (the vehicle_shares half of the access rule) and their notifications. */
export class SharingRepo {
  constructor(private readonly db: Executor) {}

  /** Runs `fn` in one transaction with this repo on it. */
  transaction<T>(fn: (repo: SharingRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new SharingRepo(tx)));
  }

  /** The vehicle's shares, oldest first; with `userId`, only that user's. */
  list(vehicleId: number, userId?: number): Promise<ShareRow[]> {
    return this.db
      .select(shareColumns)
      .from(vehicleShares)
      .innerJoin(users, eq(users.id, vehicleShares.userId))
      .where(
        and(
          eq(vehicleShares.vehicleId, vehicleId),
          userId === undefined ? undefined : eq(vehicleShares.userId, userId),
        ),
      )
      .orderBy(asc(vehicleShares.createdAt), asc(vehicleShares.userId));
  }

  async one(vehicleId: number, userId: number): Promise<ShareRow | undefined> {
    const [row] = await this.list(vehicleId, userId);
    return row;
  }

  /** The user with this username (any case) or email; undefined when there is none. */
  async findUser(nameOrEmail: string): Promise<Person | undefined> {
    const [row] = await this.db
      .select({ id: users.id, username: users.username, language: users.language })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${nameOrEmail}) or ${users.email} = lower(${nameOrEmail})`)
      .limit(1);
    return row;
  }

  async person(id: number): Promise<Person | undefined> {
    const [row] = await this.db
      .select({ id: users.id, username: users.username, language: users.language })
      .from(users)
      .where(eq(users.id, id));
    return row;
  }

  /** Adds the share; a second share of the vehicle with the same user throws UniqueViolation. */
  async insert(vehicleId: number, userId: number, role: ShareRole) {
    await uniqueChecked(this.db.insert(vehicleShares).values({ vehicleId, userId, role }));
  }

  /** False when there is no such share. */
  async setRole(vehicleId: number, userId: number, role: ShareRole): Promise<boolean> {
    const rows = await this.db
      .update(vehicleShares)
      .set({ role })
      .where(and(eq(vehicleShares.vehicleId, vehicleId), eq(vehicleShares.userId, userId)))
      .returning({ userId: vehicleShares.userId });
    return rows.length === 1;
  }

  /** False when there was no such share. */
  async delete(vehicleId: number, userId: number): Promise<boolean> {
    const rows = await this.db
      .delete(vehicleShares)
      .where(and(eq(vehicleShares.vehicleId, vehicleId), eq(vehicleShares.userId, userId)))
      .returning({ userId: vehicleShares.userId });
    return rows.length === 1;
  }

  /** A notification (and its pushes), written in the caller's transaction. */
  async notify(n: ShareNotification) {
    await createNotification(this.db, n);
  }
}

/**
 * Ends every share of the vehicle inside `tx` (the transaction that transfers or deletes it), and
 * tells each grantee but `except` (a buyer who was a grantee) in their language. The notification
 * names no vehicle id: the grantee cannot open it any more.
 */
export async function endShares(tx: Executor, vehicleId: number, reason: EndReason, except?: number) {
  const ended = rowsOf<{ userId: number; language: Language; make: string; model: string; year: number }>(
    await tx.execute(sql`
      with ended as (delete from vehicle_shares where vehicle_id = ${vehicleId} returning user_id)
      select e.user_id as "userId", u.language, v.make, v.model, v.year
        from ended e join users u on u.id = e.user_id join vehicles v on v.id = ${vehicleId}`),
  );
  const repo = new SharingRepo(tx);
  for (const g of ended) {
    if (g.userId === except) continue;
    await repo.notify({
      userId: g.userId,
      vehicleId: null,
      type: 'VEHICLE_ACCESS_ENDED',
      ...accessEndedText(g.language, g, reason),
    });
  }
}
