import type { VehicleInput } from '@evdra/domain';
import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { uniqueChecked } from '../../db/errors.js';
import { files, users, vehicles } from '../../db/schema.js';

export type VehicleRow = typeof vehicles.$inferSelect & { ownerUsername: string };

const columns = { ...getTableColumns(vehicles), ownerUsername: users.username };

export class VehiclesRepo {
  // The hottest queries of the app (the list, the ownership check of every record call, photo
  // access), planned once per connection.
  private readonly byOwner;
  private readonly byId;
  private readonly fileType;

  constructor(private readonly db: Executor) {
    this.byOwner = this.select()
      .where(eq(vehicles.ownerId, sql.placeholder('ownerId')))
      .orderBy(desc(vehicles.id))
      .prepare('vehicles_by_owner');
    this.byId = this.select()
      .where(eq(vehicles.id, sql.placeholder('id')))
      .prepare('vehicle_by_id');
    this.fileType = this.db
      .select({ contentType: files.contentType })
      .from(files)
      .innerJoin(vehicles, eq(vehicles.id, files.vehicleId))
      .where(
        and(
          eq(files.id, sql.placeholder('fileId')),
          sql`(${sql.placeholder('ownerId')}::int is null or ${vehicles.ownerId} = ${sql.placeholder('ownerId')}::int)`,
        ),
      )
      .prepare('visible_file_type');
  }

  private select() {
    return this.db.select(columns).from(vehicles).innerJoin(users, eq(users.id, vehicles.ownerId));
  }

  /** Newest first; every vehicle when ownerId is undefined (admin). */
  list(ownerId?: number): Promise<VehicleRow[]> {
    if (ownerId !== undefined) return this.byOwner.execute({ ownerId });
    return this.select().orderBy(desc(vehicles.id));
  }

  async get(id: number): Promise<VehicleRow | undefined> {
    const [row] = await this.byId.execute({ id });
    return row;
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
   * The content type of a vehicle photo the user may see (of a vehicle they own; any for
   * ownerId null, an admin), in one statement; undefined for anything else.
   */
  async visibleFileType(fileId: string, ownerId: number | null): Promise<string | undefined> {
    const [row] = await this.fileType.execute({ fileId, ownerId });
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
