import type { CurrencyCode, DistanceUnitCode } from '@evdra/domain';
import {
  type AnyColumn,
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  getTableName,
  inArray,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type Access, accessTo, reachable, reachedIds } from '../../db/access.js';
import type { Executor } from '../../db/client.js';
import { versionsDigest } from '../../db/digest.js';
import { jsonArrayText, rowsOf } from '../../db/rows.js';
import {
  type expenses,
  type fuelEntries,
  type insurances,
  type renewals,
  type revisions,
  users,
  vehicleRecordVersions,
  vehicleShares,
  vehicles,
} from '../../db/schema.js';
import { namedStatement } from '../../db/statement.js';
import { VersionedCache } from '../../lib/versioned-cache.js';

export type RecordTable =
  | typeof insurances
  | typeof expenses
  | typeof fuelEntries
  | typeof revisions
  | typeof renewals;
/**
 * A record as read: its columns. Rows this repo reads also carry `createdBy`, the username of who
 * wrote it (null: unknown), which the response schemas pass on; it is left out of the type because a
 * generic intersection would no longer fit the routes' reply types.
 */
export type RowOf<T extends RecordTable> = T['$inferSelect'];
export type ValuesOf<T extends RecordTable> = Omit<T['$inferInsert'], 'id' | 'createdAt'>;

/** Date column each record type is listed (newest first) and filtered by. */
const dateColumn = (t: RecordTable) =>
  'startDate' in t ? t.startDate : 'validUntil' in t ? t.validUntil : t.date;

/** `from` ≤ date ≤ `to` (placeholders, both inclusive; null leaves that side open). */
const inDateRange = (date: AnyColumn) =>
  sql`${date} between coalesce(${sql.placeholder('from')}::date, '-infinity'::date)
                  and coalesce(${sql.placeholder('to')}::date, 'infinity'::date)`;

/**
 * Sorts after (`afterDate`, `afterId`) in the newest-first order (placeholders; null: from the start):
 * the keyset condition of a page.
 */
const afterKey = (date: AnyColumn, id: AnyColumn) =>
  sql`(${date}, ${id}) < (coalesce(${sql.placeholder('afterDate')}::date, 'infinity'::date),
                          coalesce(${sql.placeholder('afterId')}::int, 2147483647))`;

/** A page of one vehicle's records: its JSON array, and the cursor of the next page (null: the last). */
export type VehicleListPage = { json: Buffer; next: string | null };

/**
 * CRUD for the records that hang off a vehicle (insurance, expenses, fuel, revisions).
 * Drizzle cannot type a query over a union of tables, hence the casts to the first member.
 */
export class RecordsRepo<T extends RecordTable> {
  private readonly t: typeof expenses;

  constructor(
    /** The connection or transaction this repo runs on (rules with their own queries share it). */
    readonly db: Executor,
    private readonly table: T,
    /** The per-vehicle lists this process keeps, by records version (shared with `on` copies). */
    private readonly lists = new VersionedCache<VehicleListPage>(
      LIST_CACHE_BYTES,
      (page) => page.json.length,
    ),
    /** The pages over a user's vehicles this process keeps, by the stamp of those vehicles (pageJson). */
    private readonly userPages = new VersionedCache<string, string>(LIST_CACHE_BYTES),
  ) {
    this.t = table as unknown as typeof expenses;
  }

  /**
   * The records of one vehicle, newest first, as the JSON array the API answers (UTF-8 bytes), built
   * by the database: a long list (300 fill-ups) then costs the server no row parsing, mapping nor
   * serialising, only passing text on. `fields` are the keys of the response schema, each a column
   * of the table (the statement is prepared for the fields of the first call). `from`/`to` bound the
   * date (inclusive). With `userId`, only if that user reaches the vehicle (the access rule: owner or
   * share; null: anyone, for admins); undefined when they don't, or the vehicle is not there.
   * `createdBy` (not a column) is the writer's username.
   * At most `page.limit` records, those after `page.after` in the (date, id) order (keyset paging,
   * issue 54: an index range per page, however long the car's history); `next` is the cursor of the
   * page's last record when more follow, else null. Stored fields such as a fill's consumption were
   * computed over the vehicle's whole chain when it was written, so a page carries the same figures
   * as the whole list.
   * Each page is kept at the vehicle's records version (vehicle_record_versions, kept by triggers on
   * every write, from any process): while it holds, a read is one indexed lookup that also checks
   * access, not the JSON of 300 rows (the embedded database's single thread was busy with those),
   * and the kept bytes go out as they are (encoding the 72 KB fuel list took a third of its CPU).
   */
  async listJsonByVehicle(
    fields: readonly string[],
    vehicleId: number,
    range: { from?: string; to?: string },
    userId: number | null,
    page: { limit: number; after?: { date: string; id: number } },
  ): Promise<VehicleListPage | undefined> {
    this.jsonList ??= this.prepareJsonList(fields);
    const jsonList = this.jsonList;
    this.listVersion ??= this.prepareListVersion();
    const [reached] = await this.listVersion({ vehicleId, userId });
    if (!reached) return undefined;
    const after = page.after ? `${page.after.date}_${page.after.id}` : '';
    const key = `${vehicleId}|${range.from ?? ''}|${range.to ?? ''}|${page.limit}|${after}`;
    return this.lists.through(key, reached.version, async () => {
      // The list's own statement checks access again: a share ended since the lookup shows nothing.
      const [row] = await jsonList({
        vehicleId,
        userId,
        from: range.from ?? null,
        to: range.to ?? null,
        limit: page.limit,
        afterDate: page.after?.date ?? null,
        afterId: page.after?.id ?? null,
      });
      return { json: Buffer.from(row?.json ?? '[]'), next: row?.next ?? null };
    });
  }

  private listVersion?: ReturnType<RecordsRepo<T>['prepareListVersion']>;
  private prepareListVersion() {
    return namedStatement<{ version: number }>(
      this.db,
      `${getTableName(this.t)}_list_version`,
      this.db
        // float8: the driver's number, exact to 2^53 as the bigint column's mode: 'number' (int8 comes as text).
        .select({ version: sql<number>`coalesce(${vehicleRecordVersions.version}, 0)::float8`.as('version') })
        .from(vehicles)
        .leftJoin(vehicleRecordVersions, eq(vehicleRecordVersions.vehicleId, vehicles.id))
        .where(and(eq(vehicles.id, sql.placeholder('vehicleId')), reachable(vehicles.id))),
    );
  }

  private jsonList?: ReturnType<RecordsRepo<T>['prepareJsonList']>;
  private prepareJsonList(fields: readonly string[]) {
    // The writer's name by the users' primary key, row by row as the page is read (issue 54): a
    // plain join hashed the whole users table for a long list (all 100,000 users for the 5,000-fill
    // car's). `offset 0` keeps the planner from turning the lookup back into that join.
    const writer = this.db
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, this.t.createdById))
      .offset(0)
      .as('w');
    const { selected, date, dateKey } = this.responseColumns(fields, sql`${writer.username}`);
    const ofVehicle = and(eq(this.t.vehicleId, sql.placeholder('vehicleId')), inDateRange(date));
    // Each row as a record named by the schema's keys: row_to_json writes it compactly (json_build_object
    // would add a space around every colon and comma, 20% more bytes on the 300-row fuel list).
    const rows = this.db
      .select(selected)
      .from(this.t)
      .leftJoinLateral(writer, sql`true`)
      .where(and(ofVehicle, reachable(sql.placeholder('vehicleId')), afterKey(date, this.t.id)))
      .orderBy(desc(date), desc(this.t.id))
      .limit(sql.placeholder('limit'))
      .as('r');
    const limit = sql`${sql.placeholder('limit')}::int`;
    const rowDate = sql`r.${sql.identifier(dateKey)}`;
    // Aggregated in the subquery's order (see jsonArrayText): the arrays' last element is the page's last row.
    const page = this.db
      .select({
        json: jsonArrayText().as('json'),
        lastDate: sql`case when count(*) = ${limit} then (array_agg(${rowDate}))[${limit}] end`.as(
          'last_date',
        ),
        lastId: sql`case when count(*) = ${limit} then (array_agg(r.id))[${limit}] end`.as('last_id'),
      })
      .from(rows)
      .as('p');
    // A full page has a next one when a record of the vehicle sorts after its last row (one index probe).
    const more = sql`exists (select 1 from ${this.t} where ${ofVehicle}
      and (${date}, ${this.t.id}) < (p.last_date, p.last_id))`;
    return namedStatement<{ json: string; next: string | null }>(
      this.db,
      `${getTableName(this.t)}_json_by_vehicle`,
      this.db
        .select({
          json: sql<string>`p.json`.as('json'),
          next: sql<string | null>`case when p.last_id is not null and ${more}
            then p.last_date::text || '_' || p.last_id end`.as('next'),
        })
        .from(page),
    );
  }

  /**
   * The columns a response schema's `fields` name, each under its key, and `createdBy` (the writer's
   * username) as `writer` says; also the table's date column and the key it goes by.
   */
  private responseColumns(fields: readonly string[], writer: SQL) {
    const columns = getTableColumns(this.t) as Record<string, AnyColumn>;
    const date = dateColumn(this.t);
    const dateKey = Object.keys(columns).find((key) => columns[key] === date) as string;
    const selected = Object.fromEntries(
      fields.map((key) => {
        if (key === 'createdBy') return [key, writer.as(key)];
        const column = columns[key];
        if (!column) throw new Error(`${getTableName(this.t)} has no column for the response field ${key}`);
        return [key, sql`${column}`.as(key)];
      }),
    );
    if (!(dateKey in selected) || !('id' in selected)) throw new Error('a record list needs its date and id');
    return { selected, date, dateKey };
  }

  /**
   * One page of the records of every vehicle `userId` reaches (own and shared with them; with `own`
   * only their own; every vehicle when null), newest first; keyset-paged after (`after.date`,
   * `after.id`): the RecordPage JSON the API answers, `{"items": [...], "nextCursor": "date_id" | null}`,
   * written whole by the database (`fields` as listJsonByVehicle: no rows to map nor serialise here).
   * Two named statements (one user's vehicles, or all), each planned once per connection: planning
   * was half of this read's database time. A user's page is kept while the vehicles they reach and
   * each one's records version are the same (one small statement: a fleet's page of 30 over 200 cars
   * read ~60 keys and 30 rows each time, 104 ms p95 at 50 connections, issue 54).
   */
  async pageJson(
    fields: readonly string[],
    q: {
      userId: number | null;
      own?: boolean;
      limit: number;
      after?: { date: string; id: number };
      from?: string;
      to?: string;
    },
  ): Promise<string> {
    if (q.userId === null) return this.readPage(fields, 'all', q);
    this.userStamp ??= this.prepareUserStamp();
    const [reached] = await this.userStamp({ userId: q.userId, own: q.own ?? false });
    const read = () => this.readPage(fields, 'user', q);
    return (await this.userPages.through(JSON.stringify(q), reached?.stamp ?? '', read)) as string;
  }

  private async readPage(
    fields: readonly string[],
    scope: 'user' | 'all',
    q: Parameters<RecordsRepo<T>['pageJson']>[1],
  ): Promise<string> {
    this.pages ??= { user: this.preparePage('user', fields), all: this.preparePage('all', fields) };
    const [page] = await this.pages[scope]({
      userId: q.userId,
      own: q.own ?? false,
      limit: q.limit,
      fetch: q.limit + 1,
      afterDate: q.after?.date ?? null,
      afterId: q.after?.id ?? null,
      from: q.from ?? null,
      to: q.to ?? null,
    });
    return page?.json ?? '{"items":[],"nextCursor":null}';
  }

  private pages?: Record<'user' | 'all', ReturnType<RecordsRepo<T>['preparePage']>>;
  private userStamp?: ReturnType<RecordsRepo<T>['prepareUserStamp']>;
  /**
   * The records versions of the vehicles a user reaches (reachedIds' rule), as one digest: their own
   * cars' from the versions' owner index (migration 0044; car by car through vehicle_access, a
   * fleet's 200 read 990 buffers in 1.5 ms, now 8 in 0.26, issue 54) as a versionsDigest, then
   * those shared with them. A car with no records has no version and no records to show; a car's
   * delete or sale takes its version out of its owner's range.
   */
  private prepareUserStamp() {
    const userId = sql`${sql.placeholder('userId')}::int`;
    return namedStatement<{ stamp: string }>(
      this.db,
      `${getTableName(this.t)}_user_pages_stamp`,
      sql`select md5((select ${versionsDigest(sql`rv.vehicle_id`, sql`rv.version`)}
               from ${vehicleRecordVersions} rv where rv.owner_id = ${userId})
            || '|' || coalesce((select string_agg(s.vehicle_id || ':' || coalesce(rv.version, 0), ',' order by s.vehicle_id)
               from ${vehicleShares} s left join ${vehicleRecordVersions} rv on rv.vehicle_id = s.vehicle_id
              where s.user_id = ${userId} and ${sql.placeholder('own')}::boolean is not true), '')) as stamp`,
    );
  }
  private preparePage(scope: 'user' | 'all', fields: readonly string[]) {
    // A page answers a few of the rows it sorts: their writers are looked up after the limit, not joined
    // to every row read.
    const { selected, date, dateKey } = this.responseColumns(fields, this.writerLookup());
    // Without `after`, past the end of the keyset order: every record comes first.
    const inPage = and(inDateRange(date), afterKey(date, this.t.id));
    const newestFirst = [desc(date), desc(this.t.id)];
    const limit = sql`${sql.placeholder('limit')}::int`;
    // `fetch`: one row more than the page, to know whether another follows.
    const fetch = sql.placeholder('fetch');
    // A user's page: the keys (date, id) of the newest `fetch` records of each vehicle they reach (a
    // backward range of its keyset index, read from the index alone), the newest `fetch` of those,
    // then their rows. Filtered by `vehicle_id = any(…)` instead, PostgreSQL read every record of a
    // fleet's 200 cars to sort them (43 ms for 30 rows, issue 54). Each car's range starts at a
    // bound: the `fetch`-th newest of the cars' newest keys. That many records are at or above it (a
    // car's newest each), so the page is too, and a car whose newest is below it is not read again;
    // a fleet whose cars all drove last week reads a few keys of a few cars, not `fetch` of each
    // (fleet_0001 at SCALE=1: 4,911 keys read for 31, 2.6-2.8 → 1.2-1.7 ms). Drizzle leaves the
    // columns selected below unqualified: the keys' column has a name no record table has.
    const boundKey = sql`(coalesce((select date from bound), '-infinity'::date), coalesce((select id from bound), 0))`;
    const keysFrom = (car: SQL, atLeast: SQL, take: SQL) =>
      sql`cross join lateral (select ${date} as date, ${this.t.id} as id from ${this.t}
              where ${this.t.vehicleId} = ${car} and ${inPage} and (${date}, ${this.t.id}) >= ${atLeast}
              order by ${sql.join(newestFirst, sql`, `)} limit ${take})`;
    const source =
      scope === 'user'
        ? sql`(with newest as (select reached.vehicle_id, n.date, n.id
                from unnest(${reachedIds()}) as reached(vehicle_id)
                ${keysFrom(sql`reached.vehicle_id`, sql`('-infinity'::date, 0)`, sql`1`)} n),
              bound as (select b.date, b.id from newest b order by b.date desc, b.id desc
                offset ${fetch}::int - 1 limit 1)
            select k.id as page_key from newest ${keysFrom(sql`newest.vehicle_id`, boundKey, sql`${fetch}`)} k
            where (newest.date, newest.id) >= ${boundKey}
            order by k.date desc, k.id desc limit ${fetch}) as page
          join ${this.t} on ${this.t.id} = page.page_key`
        : this.t;
    const rows = this.db
      .select(selected)
      .from(source)
      .where(scope === 'user' ? undefined : inPage)
      .orderBy(...newestFirst)
      .limit(fetch)
      .as('r');
    const rowDate = sql`r.${sql.identifier(dateKey)}`;
    const numbered = this.db
      .select({
        json: sql<string>`row_to_json(r)::text`.as('json'),
        cursor: sql<string>`${rowDate}::text || '_' || r.id`.as('cursor'),
        n: sql<number>`row_number() over (order by ${rowDate} desc, r.id desc)`.as('n'),
      })
      .from(rows)
      .orderBy(sql`n`)
      .as('p');
    // Aggregated in the subquery's order (see jsonArrayText); the cursor is the page's last row's.
    return namedStatement<{ json: string }>(
      this.db,
      `${getTableName(this.t)}_page_json_${scope}`,
      this.db
        .select({
          json: sql<string>`'{"items":[' || coalesce(string_agg(p.json, ',') filter (where p.n <= ${limit}), '')
          || '],"nextCursor":' || case when count(*) > ${limit}
            then to_json(max(p.cursor) filter (where p.n = ${limit}))::text else 'null' end || '}'`.as(
            'json',
          ),
        })
        .from(numbered),
    );
  }

  /** The currency of the vehicle's owner (a record's rate converts into it); undefined: no such vehicle. */
  async ownerCurrency(vehicleId: number): Promise<CurrencyCode | undefined> {
    const [row] = await this.statements().ownerCurrency.execute({ vehicleId });
    return row?.currency;
  }

  /**
   * The currencies of the vehicle's owner and of the user who writes one of its records (the owner's
   * when that user is gone), the writer's distance unit, and the relation to the vehicle of `userId`
   * (accessTo: null for an administrator reads 'OWNER'); undefined: no such vehicle.
   */
  async currencies(
    vehicleId: number,
    writerId: number,
    userId: number | null,
  ): Promise<
    | {
        owner: CurrencyCode;
        writer: CurrencyCode;
        writerDistanceUnit: DistanceUnitCode;
        access: Access | null;
      }
    | undefined
  > {
    const [row] = await this.statements().currencies.execute({ vehicleId, writerId, userId });
    return (
      row && {
        owner: row.owner,
        writer: row.writer ?? row.owner,
        writerDistanceUnit: row.writerDistanceUnit ?? 'km',
        access: row.access,
      }
    );
  }

  async get(id: number): Promise<RowOf<T> | undefined> {
    const [row] = await this.statements().get.execute({ id });
    return row as RowOf<T> | undefined;
  }

  // Built (and named) once per repo: drizzle then skips query building, PostgreSQL planning, per request.
  private prepared?: ReturnType<RecordsRepo<T>['prepare']>;
  private statements() {
    this.prepared ??= this.prepare();
    return this.prepared;
  }
  private prepare() {
    const name = getTableName(this.t);
    return {
      get: this.db
        .select(this.rowColumns())
        .from(this.t)
        .where(eq(this.t.id, sql.placeholder('id')))
        .prepare(`${name}_by_id`),
      ownerCurrency: this.db
        .select({ currency: users.currency })
        .from(vehicles)
        .innerJoin(users, eq(users.id, vehicles.ownerId))
        .where(eq(vehicles.id, sql.placeholder('vehicleId')))
        .prepare(`${name}_owner_currency`),
      currencies: this.db
        .select({
          owner: users.currency,
          writer: sql<CurrencyCode | null>`(select w.currency from ${users} w where w.id = ${sql.placeholder('writerId')})`,
          writerDistanceUnit: sql<DistanceUnitCode | null>`(select w.distance_unit from ${users} w where w.id = ${sql.placeholder('writerId')})`,
          access: accessTo(vehicles.id),
        })
        .from(vehicles)
        .innerJoin(users, eq(users.id, vehicles.ownerId))
        .where(eq(vehicles.id, sql.placeholder('vehicleId')))
        .prepare(`${name}_currencies`),
    };
  }

  /** The columns of a record, and `createdBy`: the username of who wrote it. */
  private rowColumns() {
    return { ...getTableColumns(this.t), createdBy: this.writerLookup() };
  }

  /** The username of who wrote the record, looked up (null: unknown). */
  private writerLookup() {
    return sql<
      string | null
    >`(select ${users.username} from ${users} where ${users.id} = ${this.t.createdById})`;
  }

  async insert(values: ValuesOf<T>): Promise<RowOf<T>> {
    const [row] = await this.db
      .insert(this.t)
      .values(values as never)
      .returning(this.rowColumns());
    if (!row) throw new Error('insert returned nothing');
    return row as RowOf<T>;
  }

  /**
   * Every change by a user bumps the row's version (see the domain's record schemas); derived
   * fields the server recomputes (fuel consumption) pass `bumpVersion: false`, so they never make
   * the user's pending edit look stale.
   */
  async update(
    id: number,
    values: Partial<ValuesOf<T>>,
    { bumpVersion = true }: { bumpVersion?: boolean } = {},
  ): Promise<RowOf<T> | undefined> {
    const set = bumpVersion ? { ...values, version: sql`${this.t.version} + 1` } : values;
    const [row] = await this.db
      .update(this.t)
      .set(set as never)
      .where(eq(this.t.id, id))
      .returning(this.rowColumns());
    return row as RowOf<T> | undefined;
  }

  async delete(id: number) {
    await this.db.delete(this.t).where(eq(this.t.id, id));
  }

  /** Records by id, as `get` reads them, in id order (an import's new rows, for their events). */
  async getMany(ids: number[]): Promise<RowOf<T>[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select(this.rowColumns())
      .from(this.t)
      .where(inArray(this.t.id, ids))
      .orderBy(asc(this.t.id));
    return rows as RowOf<T>[];
  }

  /** Inserts many records (an import) in multi-row statements of INSERT_CHUNK rows; answers the new ids. */
  async insertMany(values: ValuesOf<T>[]): Promise<number[]> {
    const first = values[0];
    if (!first) return [];
    const ids: number[] = [];
    const columns = getTableColumns(this.t) as Record<string, AnyColumn>;
    const keys = Object.keys(first).filter(
      (k) => columns[k] && (first as Record<string, unknown>)[k] !== undefined,
    );
    const sameShape = values.every((v) => keys.every((k) => (v as Record<string, unknown>)[k] !== undefined));
    if (!sameShape) {
      for (let i = 0; i < values.length; i += INSERT_CHUNK) {
        const rows = await this.db
          .insert(this.t)
          .values(values.slice(i, i + INSERT_CHUNK) as never)
          .returning({ id: this.t.id });
        ids.push(...rows.map((r) => r.id));
      }
      return ids;
    }
    // One JSON parameter per chunk, unpacked by the database (json_to_recordset): thousands of bound
    // parameters cost more to build and bind than the rows themselves to write.
    const cols = keys.map((k) => columns[k] as AnyColumn);
    const names = sql.join(
      cols.map((c) => sql.identifier(c.name)),
      sql`, `,
    );
    const typed = sql.join(
      cols.map((c) => sql`${sql.identifier(c.name)} ${sql.raw(c.getSQLType())}`),
      sql`, `,
    );
    for (let i = 0; i < values.length; i += INSERT_CHUNK) {
      const rows = values
        .slice(i, i + INSERT_CHUNK)
        .map((v) =>
          Object.fromEntries(cols.map((c, j) => [c.name, (v as Record<string, unknown>)[keys[j] as string]])),
        );
      const inserted = rowsOf<{ id: number }>(
        await this.db.execute(
          sql`insert into ${this.t} (${names}) select ${names} from json_to_recordset(${JSON.stringify(rows)}::json) as x(${typed}) returning id`,
        ),
      );
      ids.push(...inserted.map((r) => Number(r.id)));
    }
    return ids;
  }

  /** This repo on another connection or transaction. */
  on(db: Executor): RecordsRepo<T> {
    return new RecordsRepo(db, this.table, this.lists, this.userPages);
  }

  /** Runs `fn` in a transaction that holds this vehicle's lock, with a repo bound to it. */
  inVehicleLock<R>(vehicleId: number, fn: (repo: RecordsRepo<T>) => Promise<R>): Promise<R> {
    return this.db.transaction(async (tx) => {
      await lockVehicle(tx, vehicleId);
      return fn(new RecordsRepo(tx, this.table, this.lists, this.userPages));
    });
  }
}

const LOCK_SPACE = 7_203_413;
/** Characters of record lists kept per record type: some hundred 300-row fuel lists. */
const LIST_CACHE_BYTES = 8_000_000;
/** Rows per multi-row insert: well under PostgreSQL's 65,535 parameters for the widest record. */
const INSERT_CHUNK = 5000;

/** Takes the lock every write to one vehicle's records holds, until `tx` ends. */
export async function lockVehicle(tx: Executor, vehicleId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${vehicleId})`);
}
