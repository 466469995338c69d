import type { Readable } from 'node:stream';
import type { FileStore } from '../../files/file-store.js';
import { AppError, notFound } from '../../lib/errors.js';
import { ZipStream } from '../../lib/zip.js';
import type { Principal } from '../auth/auth.service.js';
import type { UsersService } from '../users/users.service.js';
import type { AccountRepo } from './account.repo.js';
import { README } from './readme.js';

type Deps = {
  repo: AccountRepo;
  users: UsersService;
  /** argon2 check of the user's password (the auth module's). */
  passwordMatches: (userId: number, password: string) => Promise<boolean>;
  /** Ends every session of the user at once (cookies are cleared by the route). */
  endSessions: (userId: number) => void;
  /** One vehicle's records as the re-importable CSV of GET /api/vehicles/{id}/export.csv. */
  vehicleCsv: (p: Principal, vehicleId: number) => Promise<string>;
  files: FileStore;
  /** The user's vehicles' documents with their pages (issue 52); none when not given. */
  documentsOf?: (userId: number) => Promise<ExportedDocument[]>;
  now?: () => Date;
};

/** A document as the export writes it, with where each page's bytes are stored. */
export type ExportedDocument = Record<string, unknown> & {
  id: number;
  vehicleId: number;
  pages: { page: number; name: string; fileId: string }[];
};

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const extension = (contentType: string) =>
  ({ 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' })[contentType] ?? 'bin';

/** The user's own data: all of it as a ZIP (GDPR art. 20), or gone with the account (art. 17). */
export class AccountService {
  constructor(private readonly d: Deps) {}

  /**
   * Everything the user owns as a ZIP, streamed: the archive is written while it is sent, one
   * vehicle's records and one photo at a time. Resolves once the user is known; errors later
   * end the stream (the client sees a cut download, never a half-valid ZIP called complete).
   */
  async exportZip(p: Principal): Promise<{ stream: Readable; filename: string }> {
    const user = await this.d.users.get(p.userId);
    const zip = new ZipStream();
    const day = (this.d.now?.() ?? new Date()).toISOString().slice(0, 10);
    void this.writeExport(p, user, zip).catch((err: Error) => zip.fail(err));
    return { stream: zip.stream, filename: `evdra-${user.username}-${day}.zip` };
  }

  private async writeExport(p: Principal, user: Awaited<ReturnType<UsersService['get']>>, zip: ZipStream) {
    const { repo } = this.d;
    await zip.addText('README.txt', README);
    await zip.addText(
      'account.json',
      json({
        id: user.id,
        username: user.username,
        email: user.email,
        role: user.role,
        status: user.status,
        createdAt: user.createdAt,
        settings: { language: user.language, country: user.country, gdprConsent: user.gdprConsent },
      }),
    );
    const photos = await repo.exportedFilesOf(user.id);
    const photoName = (id: string) => {
      const f = photos.find((x) => x.id === id);
      return f ? `photos/${f.id}.${extension(f.contentType)}` : null;
    };
    const vehicles = await repo.vehiclesOf(user.id);
    await zip.addText(
      'vehicles.json',
      json(
        vehicles.map(({ photoId, ...v }) => ({
          ...v,
          photo: photoId ? photoName(photoId) : null,
          records: `records/vehicle-${v.id}.csv`,
        })),
      ),
    );
    for (const v of vehicles)
      await zip.addText(`records/vehicle-${v.id}.csv`, await this.d.vehicleCsv(p, v.id));
    await zip.addText('renewals.json', json(await repo.renewalsOf(user.id)));
    const listings = await repo.listingsOf(user.id);
    await zip.addText(
      'listings.json',
      json(listings.map(({ photoIds, ...l }) => ({ ...l, photos: photoIds.map(photoName).filter(Boolean) }))),
    );
    await zip.addText('messages.json', json(await repo.messagesBy(user.id)));
    await zip.addText('notifications.json', json(await repo.notificationsOf(user.id)));
    await zip.addText('assistant-chat.json', json(await repo.chatOf(user.id)));
    for (const f of photos) {
      const file = await this.d.files.open(f.id);
      if (file) await zip.addFile(`photos/${f.id}.${extension(f.contentType)}`, file.body);
    }
    const documents = (await this.d.documentsOf?.(user.id)) ?? [];
    const pagePath = (d: ExportedDocument, pg: ExportedDocument['pages'][number]) =>
      `documents/vehicle-${d.vehicleId}/${d.id}-${pg.page}-${pg.name.replace(/[\\/:*?"<>|]/g, '_')}`;
    await zip.addText(
      'documents.json',
      json(
        documents.map((d) => ({
          ...d,
          pages: d.pages.map(({ fileId: _f, ...pg }) => ({
            ...pg,
            file: pagePath(d, { ...pg, fileId: _f }),
          })),
        })),
      ),
    );
    for (const d of documents)
      for (const pg of d.pages) {
        const file = await this.d.files.open(pg.fileId);
        if (file) await zip.addFile(pagePath(d, pg), file.body);
      }
    zip.end();
  }

  /**
   * Deletes the account and everything it owns in one transaction (vehicles and their records,
   * photos, listings, conversations, messages they wrote, notifications, sessions), after the
   * password was checked. The last active admin cannot go (409 LAST_ADMIN).
   */
  async delete(p: Principal, password: string): Promise<void> {
    const user = await this.d.users.get(p.userId).catch(() => {
      throw notFound('User');
    });
    if (!(await this.d.passwordMatches(user.id, password)))
      throw new AppError(403, 'INVALID_CREDENTIALS', 'Wrong password. Your account was not deleted.', [
        { field: 'password', message: 'Wrong password.' },
      ]);
    const fileIds = await this.d.users.transaction(async (users, tx) => {
      const ids = await this.d.repo.on(tx).deleteLeftovers(user.id);
      await users.delete(user.id);
      return ids;
    });
    this.d.endSessions(user.id);
    // The database store lost these rows with the transaction; another store drops its copies now.
    await Promise.all(fileIds.map((id) => this.d.files.delete(id).catch(() => {})));
  }
}
