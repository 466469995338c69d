import { and, asc, desc, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import {
  fileBlobs,
  files,
  renewals,
  users,
  vehicleDocumentPages,
  vehicleDocuments,
  vehicles,
} from '../../db/schema.js';

export type DocumentRow = typeof vehicleDocuments.$inferSelect;
export type PageRow = typeof vehicleDocumentPages.$inferSelect;
export type NewPage = { fileId: string; name: string; contentType: string; size: number };
export type DocumentWithPages = DocumentRow & { pages: PageRow[] };

/** A vehicle's documents and their pages; the files' rows and bytes go in the same transaction. */
export class DocumentsRepo {
  constructor(private readonly db: Executor) {}

  on(db: Executor) {
    return new DocumentsRepo(db);
  }

  transaction<T>(fn: (repo: DocumentsRepo) => Promise<T>): Promise<T> {
    return (this.db as Db).transaction((tx) => fn(new DocumentsRepo(tx)));
  }

  /**
   * Newest first, with their pages in order: at most `fetch` documents with an id below `beforeId`
   * (keyset paging, issue 54: an index range on (vehicle_id, id) per page, migration 0037).
   */
  async list(vehicleId: number, page: { fetch: number; beforeId?: number }): Promise<DocumentWithPages[]> {
    const docs = await this.db
      .select()
      .from(vehicleDocuments)
      .where(
        and(
          eq(vehicleDocuments.vehicleId, vehicleId),
          page.beforeId === undefined ? undefined : lt(vehicleDocuments.id, page.beforeId),
        ),
      )
      .orderBy(desc(vehicleDocuments.id))
      .limit(page.fetch);
    return this.withPages(docs);
  }

  async get(vehicleId: number, id: number): Promise<DocumentWithPages | undefined> {
    const docs = await this.db
      .select()
      .from(vehicleDocuments)
      .where(and(eq(vehicleDocuments.vehicleId, vehicleId), eq(vehicleDocuments.id, id)));
    return (await this.withPages(docs))[0];
  }

  private async withPages(docs: DocumentRow[]): Promise<DocumentWithPages[]> {
    if (docs.length === 0) return [];
    const pages = await this.db
      .select()
      .from(vehicleDocumentPages)
      .where(
        inArray(
          vehicleDocumentPages.documentId,
          docs.map((d) => d.id),
        ),
      )
      .orderBy(asc(vehicleDocumentPages.documentId), asc(vehicleDocumentPages.page));
    return docs.map((d) => ({ ...d, pages: pages.filter((p) => p.documentId === d.id) }));
  }

  /** The vehicle's owner with their currency and country (the renewal a document makes is theirs). */
  async ownerOf(vehicleId: number) {
    const [row] = await this.db
      .select({ id: users.id, currency: users.currency, country: users.country, language: users.language })
      .from(vehicles)
      .innerJoin(users, eq(users.id, vehicles.ownerId))
      .where(eq(vehicles.id, vehicleId));
    return row;
  }

  /**
   * Bytes the user's vehicles' documents take. `lock`: first takes the owner's transaction lock, so
   * two uploads at once cannot both pass the quota.
   */
  async usedBytes(ownerId: number, lock = false): Promise<number> {
    if (lock) await this.db.execute(sql`select pg_advisory_xact_lock(5200000, ${ownerId})`);
    const [row] = await this.db
      .select({ used: sql<string>`coalesce(sum(${vehicleDocuments.size}), 0)` })
      .from(vehicleDocuments)
      .innerJoin(vehicles, eq(vehicles.id, vehicleDocuments.vehicleId))
      .where(eq(vehicles.ownerId, ownerId));
    return Number(row?.used ?? 0);
  }

  async addFiles(vehicleId: number, rows: { id: string; contentType: string; size: number }[]) {
    if (rows.length) await this.db.insert(files).values(rows.map((r) => ({ ...r, vehicleId })));
  }

  async insert(values: typeof vehicleDocuments.$inferInsert): Promise<DocumentRow> {
    const [row] = await this.db.insert(vehicleDocuments).values(values).returning();
    if (!row) throw new Error('the document was not inserted');
    return row;
  }

  /** Sets the fields when the version is still `version`; undefined when it is not (stale). */
  async update(
    id: number,
    version: number,
    values: Partial<typeof vehicleDocuments.$inferInsert>,
  ): Promise<DocumentRow | undefined> {
    const [row] = await this.db
      .update(vehicleDocuments)
      .set({ ...values, version: version + 1, updatedAt: new Date() })
      .where(and(eq(vehicleDocuments.id, id), eq(vehicleDocuments.version, version)))
      .returning();
    return row;
  }

  /** Links the renewal the document's expiry made (not a change of the document: no version bump). */
  async setRenewal(id: number, renewalId: number | null) {
    await this.db.update(vehicleDocuments).set({ renewalId }).where(eq(vehicleDocuments.id, id));
  }

  async setPages(documentId: number, pages: NewPage[]) {
    await this.db.delete(vehicleDocumentPages).where(eq(vehicleDocumentPages.documentId, documentId));
    if (pages.length)
      await this.db
        .insert(vehicleDocumentPages)
        .values(pages.map((p, i) => ({ ...p, documentId, page: i + 1 })));
  }

  /**
   * The vehicle's latest document of `type` (other than `exceptId`) whose expiry made a renewal: the
   * one a newer document of the same type replaces.
   */
  async latestWithRenewal(vehicleId: number, type: DocumentRow['type'], exceptId: number) {
    const [row] = await this.db
      .select()
      .from(vehicleDocuments)
      .where(
        and(
          eq(vehicleDocuments.vehicleId, vehicleId),
          eq(vehicleDocuments.type, type),
          ne(vehicleDocuments.id, exceptId),
          isNotNull(vehicleDocuments.renewalId),
        ),
      )
      .orderBy(desc(vehicleDocuments.expiresOn), desc(vehicleDocuments.id))
      .limit(1);
    return row;
  }

  async insertRenewal(values: typeof renewals.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(renewals).values(values).returning({ id: renewals.id });
    if (!row) throw new Error('the renewal was not inserted');
    return row.id;
  }

  async updateRenewal(id: number, values: Partial<typeof renewals.$inferInsert>) {
    await this.db
      .update(renewals)
      .set({ ...values, version: sql`${renewals.version} + 1`, updatedAt: new Date() })
      .where(eq(renewals.id, id));
  }

  async deleteRenewal(id: number) {
    await this.db.delete(renewals).where(eq(renewals.id, id));
  }

  /** Deletes the document (its pages cascade) and the rows and bytes of `fileIds`. */
  async delete(id: number, fileIds: string[]) {
    await this.db.delete(vehicleDocuments).where(eq(vehicleDocuments.id, id));
    await this.deleteFiles(fileIds);
  }

  async deleteFiles(fileIds: string[]) {
    if (fileIds.length === 0) return;
    await this.db.delete(files).where(inArray(files.id, fileIds));
    // The database FileStore's bytes go with the rows (as an account's delete does); another store
    // drops its copies after the commit.
    await this.db.delete(fileBlobs).where(inArray(fileBlobs.id, fileIds));
  }

  /**
   * The sale's step (inside its transaction): the seller's private documents of the vehicle go (rows,
   * pages, files); the others stay with the car for its buyer. Answers the deleted files' ids.
   */
  async dropPrivate(vehicleId: number): Promise<string[]> {
    const docs = await this.db
      .select()
      .from(vehicleDocuments)
      .where(and(eq(vehicleDocuments.vehicleId, vehicleId), eq(vehicleDocuments.private, true)));
    const ids: string[] = [];
    for (const d of await this.withPages(docs)) {
      const fileIds = fileIdsOf(d);
      await this.delete(d.id, fileIds);
      ids.push(...fileIds);
    }
    return ids;
  }

  /** The user's vehicles' documents (their account export), oldest first. */
  async ofOwner(ownerId: number): Promise<DocumentWithPages[]> {
    const docs = await this.db
      .select({ d: vehicleDocuments })
      .from(vehicleDocuments)
      .innerJoin(vehicles, eq(vehicles.id, vehicleDocuments.vehicleId))
      .where(eq(vehicles.ownerId, ownerId))
      .orderBy(asc(vehicleDocuments.vehicleId), asc(vehicleDocuments.id));
    return this.withPages(docs.map((r) => r.d));
  }

  /** A vehicle's documents that are not private (the history report's list: type, number, validity). */
  async forReport(vehicleId: number) {
    return this.db
      .select({
        type: vehicleDocuments.type,
        title: vehicleDocuments.title,
        number: vehicleDocuments.number,
        issuedOn: vehicleDocuments.issuedOn,
        expiresOn: vehicleDocuments.expiresOn,
      })
      .from(vehicleDocuments)
      .where(and(eq(vehicleDocuments.vehicleId, vehicleId), eq(vehicleDocuments.private, false)))
      .orderBy(asc(vehicleDocuments.type), desc(vehicleDocuments.id));
  }
}

/** Every stored file of a document: its pages and its preview. */
export const fileIdsOf = (d: DocumentWithPages): string[] => [
  ...d.pages.map((p) => p.fileId),
  ...(d.previewFileId ? [d.previewFileId] : []),
];
