import { and, eq, gt, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { oidcIdentities, oidcLoginStates, oidcSessions } from '../../db/schema.js';

export type OidcIdentityRow = typeof oidcIdentities.$inferSelect;

/** Provider accounts linked to users, sign-ins under way, and the ID tokens of provider logins. */
export class OidcRepo {
  constructor(private readonly db: Executor) {}

  async findIdentity(issuer: string, subject: string): Promise<OidcIdentityRow | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcIdentities)
      .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, subject)));
    return row;
  }

  /** Links (issuer, subject) to the user; false when that provider account is already linked. */
  async addIdentity(i: {
    issuer: string;
    subject: string;
    userId: number;
    email?: string;
  }): Promise<boolean> {
    const rows = await this.db
      .insert(oidcIdentities)
      .values({ ...i, email: i.email ?? null })
      .onConflictDoNothing()
      .returning({ id: oidcIdentities.id });
    return rows.length === 1;
  }

  async touchIdentity(id: number, email: string | undefined, now: Date) {
    await this.db
      .update(oidcIdentities)
      .set({ lastLoginAt: now, email: email ?? null })
      .where(eq(oidcIdentities.id, id));
  }

  async addLoginState(s: { stateHash: string; nonce: string; codeVerifier: string }) {
    await this.db.insert(oidcLoginStates).values(s);
  }

  /** Uses a sign-in's state once: its nonce and verifier if it was unused and started after `since`. */
  async takeLoginState(
    stateHash: string,
    since: Date,
  ): Promise<{ nonce: string; codeVerifier: string } | undefined> {
    const [row] = await this.db
      .delete(oidcLoginStates)
      .where(and(eq(oidcLoginStates.stateHash, stateHash), gt(oidcLoginStates.createdAt, since)))
      .returning({ nonce: oidcLoginStates.nonce, codeVerifier: oidcLoginStates.codeVerifier });
    return row;
  }

  async addSession(s: { familyId: string; userId: number; idToken: string }) {
    await this.db.insert(oidcSessions).values(s).onConflictDoNothing();
  }

  /** The ID token of a provider login, forgotten as it is read (the login is ending). */
  async takeSession(familyId: string): Promise<string | undefined> {
    const [row] = await this.db
      .delete(oidcSessions)
      .where(eq(oidcSessions.familyId, familyId))
      .returning({ idToken: oidcSessions.idToken });
    return row?.idToken;
  }

  /** Housekeeping: sign-ins never finished, and ID tokens older than any login can live. */
  async prune(statesBefore: Date, sessionsBefore: Date) {
    await this.db.delete(oidcLoginStates).where(lt(oidcLoginStates.createdAt, statesBefore));
    await this.db.delete(oidcSessions).where(lt(oidcSessions.createdAt, sessionsBefore));
  }
}
