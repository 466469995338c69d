import type { CurrencyCode, VehicleInput } from '@evdra/domain';
import { and, desc, eq, getTableColumns, not, sql } from 'drizzle-orm';
import type { ReasonReader } from '../../ai/reasons.js';
import { type Access, accessTo, closedListingPhotoOfAnother, reachable } from '../../db/access.js';
import type { Executor } from '../../db/client.js';
import { uniqueChecked } from '../../db/errors.js';
import { aliased, isoTimestamp } from '../../db/rows.js';
import { files, users, vehicleAccess, vehicles } from '../../db/schema.js';
import { namedStatement } from '../../db/statement.js';

export type { Access };

/** `access`: the reader's relation to it; null when they have none (an administrator's reads say 'OWNER'). */
export type VehicleRow = typeof vehicles.$inferSelect & {
  ownerUsername: string;
  ownerCurrency: CurrencyCode;
  access: Access | null;
};

/** A vehicle as the API's JSON text, its AI evaluation's basis, and its reader's settings when it has one. */
export type VehicleJsonRow = { json: string; basis: unknown; reader: ReasonReader | null };

const columns = {
  ...getTableColumns(vehicles),
  ownerUsername: users.username,
  ownerCurrency: users.currency,
};

/**
 * The API's Vehicle as the database writes it: byte for byte what the route schema's serializer
 * writes of presentVehicle (a test holds them equal), numerics as JSON numbers, timestamps as
 * Date#toISOString writes them.
 */
const vehicleJson = aliased({
  id: sql`${vehicles.id}`,
  make: sql`${vehicles.make}`,
  model: sql`${vehicles.model}`,
  year: sql`${vehicles.year}`,
  fuelType: sql`${vehicles.fuelType}`,
  registrationNumber: sql`${vehicles.registrationNumber}`,
  vin: sql`${vehicles.vin}`,
  engineSize: sql`${vehicles.engineSize}::float8`,
  odometer: sql`${vehicles.odometer}`,
  aiEvaluationConsent: sql`${vehicles.aiEvaluationConsent}`,
  aiScore: sql`${vehicles.aiScore}::float8`,
  aiScoreReason: sql`${vehicles.aiScoreReason}`,
  photoUrl: sql`'/api/files/' || ${vehicles.photoId}`,
  ownerId: sql`${vehicles.ownerId}`,
  ownerUsername: sql`${users.username}`,
  version: sql`${vehicles.version}`,
  createdAt: isoTimestamp(vehicles.createdAt),
  updatedAt: isoTimestamp(vehicles.updatedAt),
  // Optional in the schema: its serializer writes them after the required keys.
  secondaryFuelType: sql`${vehicles.secondaryFuelType}`,
  tankCapacity: sql`${vehicles.tankCapacity}::float8`,
  secondaryTankCapacity: sql`${vehicles.secondaryTankCapacity}::float8`,
  access: accessTo(vehicles.id),
  ownerCurrency: sql`${users.currency}`,
});

/** A vehicle below the `before` placeholder's id (null: from the newest): a page's keyset condition. */
const before = () => sql`${vehicles.id} < coalesce(${sql.placeholder('before')}::int, 2147483647)`;

export class VehiclesRepo {
  // The hottest queries of the app (the list, the access check of every record call, photo
  // access), planned once per connection.
  private readonly byUser;
  private readonly all;
  private readonly byId;
  private readonly fileType;
  private readonly jsonById;
  private readonly basisById;

  constructor(private readonly db: Executor) {
    // The vehicles a user reaches (own and shared with them), or with `own` only their own.
    this.byUser = this.db
      .select({ ...columns, access: vehicleAccess.access })
      .from(vehicleAccess)
      .innerJoin(vehicles, eq(vehicles.id, vehicleAccess.vehicleId))
      .innerJoin(users, eq(users.id, vehicles.ownerId))
      .where(
        and(
          eq(vehicleAccess.userId, sql.placeholder('userId')),
          sql`(${sql.placeholder('own')}::boolean is not true or ${vehicleAccess.access} = 'OWNER')`,
          before(),
        ),
      )
      .orderBy(desc(vehicles.id))
      .limit(sql.placeholder('fetch'))
      .prepare('vehicles_of_user');
    this.all = this.db
      .select({ ...columns, access: sql<Access>`'OWNER'`.as('access') })
      .from(vehicles)
      .innerJoin(users, eq(users.id, vehicles.ownerId))
      .where(before())
      .orderBy(desc(vehicles.id))
      .limit(sql.placeholder('fetch'))
      .prepare('vehicles_all');
    this.byId = this.db
      .select({ ...columns, access: accessTo(vehicles.id).as('access') })
      .from(vehicles)
      .innerJoin(users, eq(users.id, vehicles.ownerId))
      .where(eq(vehicles.id, sql.placeholder('id')))
      .prepare('vehicle_by_id_for_user');
    // Run on the driver (db/statement.ts): a photo's check and the vehicle page's read.
    this.fileType = namedStatement<{ contentType: string }>(
      this.db,
      'visible_file_type',
      this.db
        .select({ contentType: sql<string>`${files.contentType}`.as('contentType') })
        .from(files)
        .innerJoin(vehicles, eq(vehicles.id, files.vehicleId))
        .where(
          and(
            eq(files.id, sql.placeholder('fileId')),
            reachable(vehicles.id),
            // a sold or deactivated listing's photos are its seller's alone, even for the car's new owner
            not(closedListingPhotoOfAnother(files.id)),
          ),
        ),
    );
    // The JSON, and whether the car has an AI reason (issue 50: written for each reader when it has a
    // basis, read apart). The basis read beside the JSON cost this route 15% of its CPU (bench:ab).
    this.jsonById = namedStatement<{ json: string; evaluated: boolean }>(
      this.db,
      'vehicle_json_by_id_for_user',
      this.db
        .select({
          json: sql<string>`row_to_json(r)::text`.as('json'),
          evaluated: sql<boolean>`r."aiScoreReason" is not null`.as('evaluated'),
        })
        .from(
          this.db
            .select(vehicleJson)
            .from(vehicles)
            .innerJoin(users, eq(users.id, vehicles.ownerId))
            .where(and(eq(vehicles.id, sql.placeholder('id')), reachable(vehicles.id)))
            .as('r'),
        ),
    );
    this.basisById = namedStatement<Omit<VehicleJsonRow, 'json'>>(
      this.db,
      'vehicle_ai_basis_for_reader',
      sql`select v.ai_score_basis as basis,
                 case when v.ai_score_basis is not null then (
                   select json_build_object('language', u.language, 'currency', u.currency,
                            'distanceUnit', u.distance_unit, 'volumeUnit', u.volume_unit,
                            'consumptionUnit', u.consumption_unit)
                     from users u where u.id = ${sql.placeholder('reader')}) end as reader
            from vehicles v where v.id = ${sql.placeholder('id')}`,
    );
  }

  /**
   * Newest first: the vehicles `userId` reaches (with `own`, only those they own); every vehicle
   * when userId is undefined (admin, who has the owner's rights on each). At most `fetch`, those
   * with an id below `before` (keyset paging, issue 54: an index range, however many cars).
   */
  list(
    userId: number | undefined,
    own: boolean,
    page: { fetch: number; before?: number },
  ): Promise<VehicleRow[]> {
    const at = { fetch: page.fetch, before: page.before ?? null };
    if (userId !== undefined) return this.byUser.execute({ userId, own, ...at });
    return this.all.execute(at);
  }

  /**
   * The vehicle with `access`, the relation of `userId` to it (null: none); for userId null (an
   * administrator, or the server itself) `access` is 'OWNER'.
   */
  async get(id: number, userId: number | null = null): Promise<VehicleRow | undefined> {
    const [row] = await this.byId.execute({ id, userId });
    return row as VehicleRow | undefined;
  }

  /**
   * As get, as the API's Vehicle JSON text (its aiScoreReason as stored), with the AI evaluation's
   * basis and, when there is one, the settings of `readerId`; undefined when `userId` does not reach it.
   */
  async getJson(id: number, userId: number | null, readerId: number): Promise<VehicleJsonRow | undefined> {
    const [row] = await this.jsonById({ id, userId });
    if (!row) return undefined;
    if (!row.evaluated) return { json: row.json, basis: null, reader: null };
    const [more] = await this.basisById({ id, reader: readerId });
    return { json: row.json, basis: more?.basis ?? null, reader: more?.reader ?? null };
  }

  async insert(ownerId: number, input: VehicleInput): Promise<number> {
    const [row] = await uniqueChecked(
      this.db
        .insert(vehicles)
        .values({ ...input, ownerId })
        .returning({ id: vehicles.id }),
    );
    if (!row) throw new Error('insert returned nothing');
    return row.id;
  }

  /** Applies the change only if the row still has `version`; false when stale (or gone). */
  async update(id: number, version: number, changes: Partial<VehicleInput> & { photoId?: string | null }) {
    const rows = await uniqueChecked(
      this.db
        .update(vehicles)
        .set({ ...changes, version: sql`${vehicles.version} + 1`, updatedAt: new Date() })
        .where(and(eq(vehicles.id, id), eq(vehicles.version, version)))
        .returning({ id: vehicles.id }),
    );
    return rows.length === 1;
  }

  async registrationTaken(ownerId: number, registrationNumber: string, exceptId?: number) {
    const rows = await this.db
      .select({ id: vehicles.id })
      .from(vehicles)
      .where(and(eq(vehicles.ownerId, ownerId), eq(vehicles.registrationNumber, registrationNumber)));
    return rows.some((r) => r.id !== exceptId);
  }

  /** Runs `fn` in one transaction, with the transaction and this repo bound to it. */
  transaction<T>(fn: (tx: Executor, repo: VehiclesRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(tx, new VehiclesRepo(tx)));
  }

  async delete(id: number) {
    await this.db.delete(vehicles).where(eq(vehicles.id, id));
  }

  /** Raises the odometer to `km` when higher; `on` is the transaction of the write that read it. */
  async raiseOdometer(vehicleId: number, km: number, on: Executor = this.db) {
    await on
      .update(vehicles)
      .set({ odometer: km, version: sql`${vehicles.version} + 1`, updatedAt: new Date() })
      .where(and(eq(vehicles.id, vehicleId), sql`${vehicles.odometer} < ${km}`));
  }

  // ── stored files of a vehicle ──
  async addFile(f: { id: string; vehicleId: number; contentType: string; size: number }) {
    await this.db.insert(files).values(f);
  }

  /**
   * The content type of a vehicle photo the user may see (of a vehicle they reach, unless it is the
   * photo of another seller's listing no longer active; any for userId null, an admin), in one
   * statement; undefined for anything else.
   */
  async visibleFileType(fileId: string, userId: number | null): Promise<string | undefined> {
    const [row] = await this.fileType({ fileId, userId });
    return row?.contentType;
  }

  async fileIdsOf(vehicleId: number): Promise<string[]> {
    const rows = await this.db.select({ id: files.id }).from(files).where(eq(files.vehicleId, vehicleId));
    return rows.map((r) => r.id);
  }

  async deleteFileRow(fileId: string) {
    await this.db.delete(files).where(eq(files.id, fileId));
  }
}
