import { and, asc, eq, inArray, isNotNull, not, sql } from 'drizzle-orm';
import { closedListingPhotoOfAnother } from '../../db/access.js';
import type { Executor } from '../../db/client.js';
import {
  chatMessages,
  fileBlobs,
  files,
  interests,
  listings,
  marketMessages,
  notifications,
  renewals,
  vehicles,
} from '../../db/schema.js';

/** What a user owns, read for their data export (GDPR art. 20) and removed with their account (art. 17). */
export class AccountRepo {
  constructor(readonly db: Executor) {}

  on(db: Executor) {
    return new AccountRepo(db);
  }

  vehiclesOf(userId: number) {
    return this.db.select().from(vehicles).where(eq(vehicles.ownerId, userId)).orderBy(asc(vehicles.id));
  }

  /** Every stored file of the user's vehicles (their photos and their listings' photos). */
  filesOf(userId: number) {
    return this.db
      .select({ id: files.id, vehicleId: files.vehicleId, contentType: files.contentType, size: files.size })
      .from(files)
      .innerJoin(vehicles, eq(vehicles.id, files.vehicleId))
      .where(and(eq(vehicles.ownerId, userId), isNotNull(files.vehicleId)))
      .orderBy(asc(files.createdAt), asc(files.id));
  }

  /**
   * The files of the user's vehicles that their export holds: all but the photos of another
   * seller's listing no longer active (a bought car's sale photos stay the seller's, issue 49).
   */
  exportedFilesOf(userId: number) {
    return this.db
      .select({ id: files.id, vehicleId: files.vehicleId, contentType: files.contentType, size: files.size })
      .from(files)
      .innerJoin(vehicles, eq(vehicles.id, files.vehicleId))
      .where(
        and(
          eq(vehicles.ownerId, userId),
          not(closedListingPhotoOfAnother(files.id, userId)),
          // Documents' pages and previews are exported under documents/ with their names (issue 52).
          sql`not exists (select 1 from vehicle_document_pages p where p.file_id = ${files.id})`,
          sql`not exists (select 1 from vehicle_documents d where d.preview_file_id = ${files.id})`,
        ),
      )
      .orderBy(asc(files.createdAt), asc(files.id));
  }

  listingsOf(userId: number) {
    return this.db.select().from(listings).where(eq(listings.sellerId, userId)).orderBy(asc(listings.id));
  }

  /** The marketplace messages the user wrote, with the listing each was about. */
  messagesBy(userId: number) {
    return this.db
      .select({
        id: marketMessages.id,
        listingId: interests.listingId,
        content: marketMessages.content,
        createdAt: marketMessages.createdAt,
      })
      .from(marketMessages)
      .innerJoin(interests, eq(interests.id, marketMessages.interestId))
      .where(eq(marketMessages.senderId, userId))
      .orderBy(asc(marketMessages.id));
  }

  /** The renewals (road tax, vignette, inspection…) of the user's vehicles. */
  renewalsOf(userId: number) {
    return this.db
      .select({
        id: renewals.id,
        vehicleId: renewals.vehicleId,
        type: renewals.type,
        validFrom: renewals.validFrom,
        validUntil: renewals.validUntil,
        price: renewals.price,
        note: renewals.note,
        reminderEnabled: renewals.reminderEnabled,
        createdAt: renewals.createdAt,
      })
      .from(renewals)
      .innerJoin(vehicles, eq(vehicles.id, renewals.vehicleId))
      .where(eq(vehicles.ownerId, userId))
      .orderBy(asc(renewals.vehicleId), asc(renewals.validUntil), asc(renewals.id));
  }

  notificationsOf(userId: number) {
    return this.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(asc(notifications.id));
  }

  chatOf(userId: number) {
    return this.db
      .select({ role: chatMessages.role, content: chatMessages.content, createdAt: chatMessages.createdAt })
      .from(chatMessages)
      .where(eq(chatMessages.userId, userId))
      .orderBy(asc(chatMessages.id));
  }

  /**
   * What deleting the user row leaves behind: the messages they wrote in others' conversations
   * (their sender would only be set null) and their vehicles' files (set null, bytes kept).
   * Returns the ids of the files removed.
   */
  async deleteLeftovers(userId: number): Promise<string[]> {
    await this.db.delete(marketMessages).where(eq(marketMessages.senderId, userId));
    const ids = (await this.filesOf(userId)).map((f) => f.id);
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      await this.db.delete(files).where(inArray(files.id, part));
      await this.db.delete(fileBlobs).where(inArray(fileBlobs.id, part));
    }
    return ids;
  }
}
