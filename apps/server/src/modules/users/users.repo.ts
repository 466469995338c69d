import type { Language, MoneyAndUnits, Role, UserStatus } from '@evdra/domain';
import { and, asc, eq, gt, ilike, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { uniqueChecked } from '../../db/errors.js';
import { aliased, isoTimestamp, jsonArrayText } from '../../db/rows.js';
import { users, vehicles } from '../../db/schema.js';
import { namedStatement } from '../../db/statement.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = {
  username: string;
  email: string;
  passwordHash: string;
  role: Role;
  status: UserStatus;
  gdprConsent: boolean;
  language: Language;
} & MoneyAndUnits;
export type UserChanges = Partial<Omit<NewUser, 'passwordHash'>> & {
  passwordHash?: string;
  country?: UserRow['country'];
};
export type VehicleSummary = { id: number; make: string; model: string };

// Serialises "first account becomes ADMIN" and "keep one active admin" decisions.
const ROLE_LOCK = 7_203_412;

/** What each authenticated request checks about its user. */
export type AuthState = Pick<UserRow, 'id' | 'role' | 'status' | 'sessionEpoch'>;

/**
 * Per-process cache of AuthState, so a request costs no extra query. Writes through this repo drop
 * the entry at once; another replica's change shows within AUTH_STATE_TTL_MS.
 */
const AUTH_STATE_TTL_MS = 5_000;
type AuthStateCache = Map<number, { state: AuthState | undefined; until: number }>;

export class UsersRepo {
  // Every authenticated request's lookups, planned once per connection (built lazily: transaction repos rarely use them).
  private prepared?: ReturnType<UsersRepo['prepare']>;

  constructor(
    private readonly db: Executor,
    private readonly authCache: AuthStateCache = new Map(),
  ) {}

  private statements() {
    this.prepared ??= this.prepare();
    return this.prepared;
  }

  private prepare() {
    // A user as the API's User (the keys and values of users/present.ts), its vehicles included,
    // each value under its key, for JSON the database writes.
    const userJson = aliased({
      id: sql`${users.id}`,
      username: sql`${users.username}`,
      email: sql`${users.email}`,
      role: sql`${users.role}`,
      status: sql`${users.status}`,
      gdprConsent: sql`${users.gdprConsent}`,
      language: sql`${users.language}`,
      // countryOfLanguage (domain): the country follows the language until the user picks one.
      country: sql`coalesce(${users.country},
          case ${users.language} when 'ro' then 'RO' when 'es' then 'ES' else 'GENERIC' end)`,
      currency: sql`${users.currency}`,
      distanceUnit: sql`${users.distanceUnit}`,
      volumeUnit: sql`${users.volumeUnit}`,
      consumptionUnit: sql`${users.consumptionUnit}`,
      createdAt: isoTimestamp(users.createdAt),
      // Spelled out: drizzle writes columns unqualified in a one-table select, which inside this
      // subquery would all resolve to vehicles.
      vehicles: sql`coalesce((
          select json_agg(json_build_object('id', v.id, 'make', v.make, 'model', v.model) order by v.id)
          from vehicles v where v.owner_id = "users"."id"), '[]'::json)`,
    });
    const matching = or(
      ilike(users.username, sql.placeholder('pattern')),
      ilike(users.email, sql.placeholder('pattern')),
    );
    return {
      authState: this.db
        .select({ id: users.id, role: users.role, status: users.status, sessionEpoch: users.sessionEpoch })
        .from(users)
        .where(eq(users.id, sql.placeholder('id')))
        .prepare('user_auth_state'),
      byId: this.db
        .select()
        .from(users)
        .where(eq(users.id, sql.placeholder('id')))
        .prepare('user_by_id'),
      // GET /api/auth/me and /api/users/me: the user with their vehicles as the API's User.
      byIdJson: namedStatement<{ json: string }>(
        this.db,
        'user_json_by_id',
        this.db.select({ json: sql<string>`row_to_json(r)::text`.as('json') }).from(
          this.db
            .select(userJson)
            .from(users)
            .where(eq(users.id, sql.placeholder('id')))
            .as('r'),
        ),
      ),
      // GET /api/admin/users: a page of the users matching a pattern ('%' for all), by id after
      // `after`, each with its vehicles; with the page's size and last id (whether more follow).
      pageJson: namedStatement<{ json: string; n: number; last: number | null }>(
        this.db,
        'users_page_json',
        this.db
          .select({
            json: jsonArrayText().as('json'),
            n: sql<number>`count(*)::int`.as('n'),
            last: sql<number | null>`max(r.id)`.as('last'),
          })
          .from(
            this.db
              .select(userJson)
              .from(users)
              .where(and(matching, gt(users.id, sql.placeholder('after'))))
              .orderBy(asc(users.id))
              .limit(sql.placeholder('limit'))
              .as('r'),
          ),
      ),
      anyAfter: this.db
        .select({ id: users.id })
        .from(users)
        .where(and(matching, gt(users.id, sql.placeholder('after'))))
        .limit(1)
        .prepare('users_matching_after'),
      vehiclesOfOne: this.db
        .select({ id: vehicles.id, make: vehicles.make, model: vehicles.model })
        .from(vehicles)
        .where(eq(vehicles.ownerId, sql.placeholder('ownerId')))
        .orderBy(asc(vehicles.id))
        .prepare('vehicle_summaries_of_owner'),
    };
  }

  /** The cached auth state while fresh ({state: undefined}: the user is gone), else undefined. */
  knownAuthState(id: number): { state: AuthState | undefined } | undefined {
    const hit = this.authCache.get(id);
    return hit && hit.until > Date.now() ? hit : undefined;
  }

  async authState(id: number): Promise<AuthState | undefined> {
    const known = this.knownAuthState(id);
    if (known) return known.state;
    const [state] = await this.statements().authState.execute({ id });
    this.authCache.set(id, { state, until: Date.now() + AUTH_STATE_TTL_MS });
    return state;
  }

  /** Drops the cached auth state of a user another process changed. */
  forgetAuthState(id: number) {
    this.authCache.delete(id);
  }

  /** Runs `fn` in one transaction, with this repo on it. */
  transaction<T>(fn: (users: UsersRepo, tx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new UsersRepo(tx, this.authCache), tx));
  }

  async findById(id: number): Promise<UserRow | undefined> {
    const [row] = await this.statements().byId.execute({ id });
    return row;
  }

  /** The user with their vehicles (id, make, model) as User JSON text, in one statement. */
  async findJson(id: number): Promise<string | undefined> {
    const [row] = await this.statements().byIdJson({ id });
    return row?.json;
  }

  /** By username (ignoring case) or by email. */
  async findByLogin(login: string): Promise<UserRow | undefined> {
    const l = login.trim().toLowerCase();
    const [row] = await this.db
      .select()
      .from(users)
      .where(or(eq(sql`lower(${users.username})`, l), eq(users.email, l)))
      .limit(1);
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row;
  }

  /** Which of username/email another user already has. */
  async taken(username: string, email: string, exceptId?: number): Promise<'username' | 'email' | undefined> {
    const notSelf = exceptId ? ne(users.id, exceptId) : undefined;
    const [byName] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.username})`, username.toLowerCase()), notSelf));
    if (byName) return 'username';
    const [byEmail] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email.toLowerCase()), notSelf));
    return byEmail ? 'email' : undefined;
  }

  /**
   * Users (those whose username or email contains q, when given) with their vehicles, by id, at most
   * `limit` after id `after`: JSON text, and the last id when more follow.
   */
  async pageJson(
    q: string | undefined,
    after: number,
    limit: number,
  ): Promise<{ json: string; next?: number }> {
    const pattern = `%${escapeLike(q ?? '')}%`;
    const [page] = await this.statements().pageJson({ pattern, after, limit });
    if (!page || page.n < limit || page.last == null) return { json: page?.json ?? '[]' };
    const more = await this.statements().anyAfter.execute({ pattern, after: page.last });
    return { json: page.json, ...(more.length ? { next: page.last } : {}) };
  }

  async insert(user: NewUser): Promise<UserRow> {
    const [row] = await uniqueChecked(this.db.insert(users).values(user).returning());
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  /** Whether any account exists (none yet: the first to register becomes ADMIN). */
  async hasAny(): Promise<boolean> {
    const [any] = await this.db.select({ id: users.id }).from(users).limit(1);
    return any !== undefined;
  }

  /** Inserts the user as ADMIN when no account exists yet, else as the given role; atomic across replicas. */
  async insertFirstAsAdmin(user: Omit<NewUser, 'role'>): Promise<UserRow> {
    return uniqueChecked(this.insertFirst(user));
  }

  private insertFirst(user: Omit<NewUser, 'role'>): Promise<UserRow> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ROLE_LOCK})`);
      const [any] = await tx.select({ id: users.id }).from(users).limit(1);
      const [row] = await tx
        .insert(users)
        .values({ ...user, role: any ? 'USER' : 'ADMIN' })
        .returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    });
  }

  async update(id: number, changes: UserChanges & { bumpEpoch?: boolean }): Promise<UserRow | undefined> {
    this.authCache.delete(id);
    const { bumpEpoch, ...rest } = changes;
    const [row] = await uniqueChecked(
      this.db
        .update(users)
        .set({
          ...rest,
          updatedAt: new Date(),
          ...(bumpEpoch ? { sessionEpoch: sql`${users.sessionEpoch} + 1` } : {}),
        })
        .where(eq(users.id, id))
        .returning(),
    );
    return row;
  }

  /**
   * Runs `change` only if at least one other active admin would remain when `target` stops being one.
   * Returns false (and changes nothing) when `target` is the last active admin.
   */
  async withOtherActiveAdmin<T>(
    targetId: number,
    change: (repo: UsersRepo) => Promise<T>,
  ): Promise<T | false> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ROLE_LOCK})`);
      const [others] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(and(eq(users.role, 'ADMIN'), eq(users.status, 'Active'), ne(users.id, targetId)));
      if (!others || others.n === 0) return false;
      return change(new UsersRepo(tx, this.authCache));
    });
  }

  async delete(id: number): Promise<boolean> {
    this.authCache.delete(id);
    const rows = await this.db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    return rows.length > 0;
  }

  /** The user's vehicles (id, make, model), by id. */
  vehiclesOf(ownerId: number): Promise<VehicleSummary[]> {
    return this.statements().vehiclesOfOne.execute({ ownerId });
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
