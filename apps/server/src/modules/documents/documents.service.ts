import { randomBytes } from 'node:crypto';
import {
  countryOfLanguage,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_MAX_PAGES,
  DOCUMENTS_CAP,
  type DocumentData,
  type DocumentListQuery,
  type DocumentUpdateData,
  isPrivateByDefault,
  renewalTypeOfDocument,
  type VehicleDocument,
} from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import type { FileStore, StoredFile } from '../../files/file-store.js';
import { DOCUMENT_PREVIEW_MAX_SIDE, normalizeDocumentPage, sniffImage } from '../../files/images.js';
import { renderPdfFirstPage } from '../../files/pdf-render-thread.js';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import {
  type DocumentRow,
  type DocumentsRepo,
  type DocumentWithPages,
  fileIdsOf,
  type NewPage,
} from './documents.repo.js';
import { assertSafePdf, isPdf } from './pdf.js';

/** An uploaded page as it came: its bytes and the name the client gave it. */
export type Upload = { bytes: Buffer; filename: string };

/** What documents need of the vehicle they are reached through: its owner pays the storage quota. */
type AccessibleVehicle = { ownerId: number };

/** What documents need of the vehicles feature (the one access rule; app.ts hands it VehiclesService). */
export type DocumentAccess = {
  /** Read: owner, editor, viewer, admin; 404 for anyone else. */
  visible: (p: Principal, vehicleId: number) => Promise<AccessibleVehicle>;
  /** Add and edit: not a viewer (403). */
  writable: (p: Principal, vehicleId: number) => Promise<AccessibleVehicle>;
  /** Delete: owner or admin (403 editor and viewer). */
  owned: (p: Principal, vehicleId: number) => Promise<AccessibleVehicle>;
};

const base = (vehicleId: number, id: number) => `/api/vehicles/${vehicleId}/documents/${id}/file`;

export function presentDocument(d: DocumentWithPages): VehicleDocument {
  const url = base(d.vehicleId, d.id);
  return {
    id: d.id,
    vehicleId: d.vehicleId,
    type: d.type,
    title: d.title,
    number: d.number,
    issuedOn: d.issuedOn,
    expiresOn: d.expiresOn,
    notes: d.notes,
    private: d.private,
    pages: d.pages.map((p) => ({
      page: p.page,
      name: p.name,
      contentType: p.contentType,
      size: p.size,
      url: p.page === 1 ? url : `${url}?page=${p.page}`,
    })),
    previewUrl: d.previewFileId ? `${url}?preview=true` : null,
    size: d.size,
    renewalId: d.renewalId,
    version: d.version,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);

/** A file name as the client sent it, made safe to keep: no path, no control characters, ≤ 200 chars. */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...last]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f && ch !== '"')
    .join('')
    .trim()
    .slice(0, 200);
  return clean || fallback;
}

/** Pages ready to store: their bytes, type and name, and the list's preview of the first one. */
type Prepared = { pages: (NewPage & { bytes: Buffer })[]; preview?: Buffer; size: number };

/**
 * A vehicle's papers. Pages are checked by their bytes: photos (JPEG, PNG, WebP) are re-encoded
 * without metadata as vehicle photos are, PDFs kept as they are unless encrypted or scripted (415).
 * The list's preview is the first page's, a PDF's drawn by pdf.js (none if it cannot be drawn).
 * Everything of one request is stored or nothing is: the pages are checked and encoded first, then
 * the files' bytes, rows, the document and its renewal are written in one transaction (the bytes
 * stored before it are deleted again if it fails).
 */
export class DocumentsService {
  constructor(
    private readonly repo: DocumentsRepo,
    private readonly store: FileStore,
    private readonly access: DocumentAccess,
    private readonly quotaBytes: number,
  ) {}

  /**
   * The vehicle's documents, newest first: `limit` of them (without it DOCUMENTS_CAP) after the id
   * `cursor`; `next`: the next page's cursor when more follow.
   */
  async list(
    p: Principal,
    vehicleId: number,
    q: DocumentListQuery = {},
  ): Promise<{ docs: VehicleDocument[]; next?: string }> {
    await this.access.visible(p, vehicleId);
    const limit = q.limit ?? DOCUMENTS_CAP;
    const rows = await this.repo.list(vehicleId, {
      fetch: limit + 1,
      beforeId: q.cursor ? Number(q.cursor) : undefined,
    });
    if (rows.length <= limit) return { docs: rows.map(presentDocument) };
    rows.length = limit;
    return { docs: rows.map(presentDocument), next: String(rows[limit - 1]?.id) };
  }

  async one(p: Principal, vehicleId: number, id: number): Promise<VehicleDocument> {
    await this.access.visible(p, vehicleId);
    return presentDocument(await this.found(this.repo, vehicleId, id));
  }

  async create(
    p: Principal,
    vehicleId: number,
    data: DocumentData,
    uploads: Upload[],
  ): Promise<VehicleDocument> {
    const v = await this.access.writable(p, vehicleId);
    if (uploads.length === 0)
      throw fieldError('VALIDATION_FAILED', 400, 'files', 'Add at least one page: a photo or a PDF.');
    const prepared = await prepare(uploads);
    await this.assertQuota(this.repo, v.ownerId, prepared.size);
    const stored = await this.storeBytes(prepared);
    try {
      const doc = await this.repo.transaction(async (tx) => {
        await this.assertQuota(tx, v.ownerId, prepared.size, true);
        await tx.addFiles(vehicleId, stored.files);
        const row = await tx.insert({
          vehicleId,
          type: data.type,
          title: data.title,
          number: data.number || null,
          issuedOn: data.issuedOn ?? null,
          expiresOn: data.expiresOn ?? null,
          notes: data.notes,
          private: data.private ?? isPrivateByDefault(data.type),
          previewFileId: stored.previewId ?? null,
          size: prepared.size,
          createdById: p.userId,
        });
        await tx.setPages(row.id, stored.pages);
        const renewalId = await this.renewalFor(tx, row, p.userId);
        if (renewalId !== null) await tx.setRenewal(row.id, renewalId);
        return this.found(tx, vehicleId, row.id);
      });
      return presentDocument(doc);
    } catch (err) {
      await this.dropBytes(stored.ids);
      throw err;
    }
  }

  /**
   * Changes the fields (a stale `version` gets 409 with the current document) and, with `uploads`,
   * replaces every page. The renewal follows the expiry date: moved, made, or removed with it.
   */
  async update(
    p: Principal,
    vehicleId: number,
    id: number,
    data: DocumentUpdateData,
    uploads?: Upload[],
  ): Promise<VehicleDocument> {
    const v = await this.access.writable(p, vehicleId);
    const current = await this.found(this.repo, vehicleId, id);
    if (data.version !== undefined && data.version !== current.version) throw stale(current);
    const prepared = uploads?.length ? await prepare(uploads) : undefined;
    if (prepared) await this.assertQuota(this.repo, v.ownerId, prepared.size - current.size);
    const stored = prepared ? await this.storeBytes(prepared) : undefined;
    let oldFiles: string[] = [];
    try {
      const doc = await this.repo.transaction(async (tx) => {
        const now = await this.found(tx, vehicleId, id);
        if (data.version !== undefined && data.version !== now.version) throw stale(now);
        if (prepared && stored) {
          await this.assertQuota(tx, v.ownerId, prepared.size - now.size, true);
          await tx.addFiles(vehicleId, stored.files);
          await tx.setPages(id, stored.pages);
          oldFiles = fileIdsOf(now);
        }
        const row = await tx.update(id, now.version, {
          type: data.type,
          title: data.title,
          number: data.number || null,
          issuedOn: data.issuedOn ?? null,
          expiresOn: data.expiresOn ?? null,
          notes: data.notes,
          private: data.private ?? now.private,
          ...(prepared && stored ? { previewFileId: stored.previewId ?? null, size: prepared.size } : {}),
        });
        if (!row) throw stale(await this.found(tx, vehicleId, id));
        await tx.deleteFiles(oldFiles);
        const renewalId = await this.renewalFor(tx, row, p.userId);
        if (renewalId !== row.renewalId) await tx.setRenewal(id, renewalId);
        return this.found(tx, vehicleId, id);
      });
      await this.dropBytes(oldFiles);
      return presentDocument(doc);
    } catch (err) {
      if (stored) await this.dropBytes(stored.ids);
      throw err;
    }
  }

  /** Only the owner (or an admin) deletes; the renewal its expiry made goes with it. */
  async remove(p: Principal, vehicleId: number, id: number): Promise<void> {
    await this.access.owned(p, vehicleId);
    const doc = await this.found(this.repo, vehicleId, id);
    const ids = fileIdsOf(doc);
    await this.repo.transaction(async (tx) => {
      await tx.delete(id, ids);
      if (doc.renewalId !== null) await tx.deleteRenewal(doc.renewalId);
    });
    await this.dropBytes(ids);
  }

  /** A page (1 = the first) or the list's preview, with the name to download it under. */
  async file(
    p: Principal,
    vehicleId: number,
    id: number,
    page = 1,
    preview = false,
  ): Promise<{ file: StoredFile; contentType: string; name: string; etag: string }> {
    await this.access.visible(p, vehicleId);
    const doc = await this.found(this.repo, vehicleId, id);
    const pg = doc.pages.find((x) => x.page === page);
    if (!pg) throw notFound('Page');
    const fileId = preview ? doc.previewFileId : pg.fileId;
    if (!fileId) throw notFound('Preview');
    const file = await this.store.open(fileId);
    if (!file) throw notFound('File');
    return {
      file,
      contentType: preview ? 'image/jpeg' : pg.contentType,
      name: downloadName(pg.name, preview ? 'image/jpeg' : pg.contentType),
      etag: `"${fileId}"`,
    };
  }

  /** The user's vehicles' documents for their account export: pages under their download names. */
  async exportOf(userId: number) {
    return (await this.repo.ofOwner(userId)).map((d) => {
      const { pages, previewFileId: _p, renewalId: _r, createdById: _c, ...fields } = d;
      return {
        ...fields,
        createdAt: d.createdAt.toISOString(),
        updatedAt: d.updatedAt.toISOString(),
        pages: pages.map((pg) => ({
          page: pg.page,
          name: downloadName(pg.name, pg.contentType),
          contentType: pg.contentType,
          size: pg.size,
          fileId: pg.fileId,
        })),
      };
    });
  }

  /** The sale's step, inside its transaction: private documents stay the seller's (they go). */
  handOver(tx: Executor, vehicleId: number): Promise<string[]> {
    return this.repo.on(tx).dropPrivate(vehicleId);
  }

  /** After a commit that deleted files' rows: another store than the database drops its copies. */
  async dropBytes(ids: string[]) {
    await Promise.all(ids.map((id) => this.store.delete(id).catch(() => {})));
  }

  private async found(repo: DocumentsRepo, vehicleId: number, id: number): Promise<DocumentWithPages> {
    const doc = await repo.get(vehicleId, id);
    if (!doc) throw notFound('Document');
    return doc;
  }

  private async assertQuota(repo: DocumentsRepo, ownerId: number, adding: number, lock = false) {
    if (adding <= 0) {
      if (lock) await repo.usedBytes(ownerId, true);
      return;
    }
    const used = await repo.usedBytes(ownerId, lock);
    if (used + adding > this.quotaBytes)
      throw new AppError(
        413,
        'PAYLOAD_TOO_LARGE',
        `Documents storage is full: ${mb(used)} MB of ${mb(this.quotaBytes)} MB used; this needs ${mb(adding)} MB more.`,
        { usedBytes: used, quotaBytes: this.quotaBytes, neededBytes: adding },
      );
  }

  /** Puts the pages' and preview's bytes in the store under new ids (before the transaction). */
  private async storeBytes(prepared: Prepared) {
    const ids: string[] = [];
    const newId = () => randomBytes(16).toString('base64url');
    try {
      const pages: NewPage[] = [];
      const files: { id: string; contentType: string; size: number }[] = [];
      for (const pg of prepared.pages) {
        const id = newId();
        ids.push(id);
        await this.store.put(id, pg.bytes);
        pages.push({ fileId: id, name: pg.name, contentType: pg.contentType, size: pg.size });
        files.push({ id, contentType: pg.contentType, size: pg.size });
      }
      let previewId: string | undefined;
      if (prepared.preview) {
        previewId = newId();
        ids.push(previewId);
        await this.store.put(previewId, prepared.preview);
        files.push({ id: previewId, contentType: 'image/jpeg', size: prepared.preview.length });
      }
      return { ids, pages, files, previewId };
    } catch (err) {
      await this.dropBytes(ids);
      throw err;
    }
  }

  /**
   * The renewal the document's expiry makes, as the owner's renewals are (their country's type, their
   * currency, no price). A newer document of a type whose older one made a renewal moves that renewal
   * (next year's RCA moves the reminder); an older one makes none. No expiry: its renewal goes.
   */
  private async renewalFor(tx: DocumentsRepo, doc: DocumentRow, userId: number): Promise<number | null> {
    if (!doc.expiresOn) {
      if (doc.renewalId !== null) await tx.deleteRenewal(doc.renewalId);
      return null;
    }
    const owner = await tx.ownerOf(doc.vehicleId);
    const country = owner?.country ?? countryOfLanguage(owner?.language ?? 'en');
    const values = {
      type: renewalTypeOfDocument(doc.type, country),
      validFrom: doc.issuedOn,
      validUntil: doc.expiresOn,
      note: doc.title.slice(0, 500),
    };
    if (doc.renewalId !== null) {
      await tx.updateRenewal(doc.renewalId, values);
      return doc.renewalId;
    }
    const older = await tx.latestWithRenewal(doc.vehicleId, doc.type, doc.id);
    if (older?.renewalId) {
      if (older.expiresOn && older.expiresOn > doc.expiresOn) return null;
      await tx.setRenewal(older.id, null);
      await tx.updateRenewal(older.renewalId, { ...values, reminderEnabled: true });
      return older.renewalId;
    }
    const currency = owner?.currency ?? 'EUR';
    return tx.insertRenewal({
      ...values,
      vehicleId: doc.vehicleId,
      price: null,
      currency,
      exchangeRate: 1,
      rateCurrency: currency,
      createdById: userId,
    });
  }
}

/** Checks every page by its bytes and encodes the photos; nothing is stored yet. */
async function prepare(uploads: Upload[]): Promise<Prepared> {
  if (uploads.length > DOCUMENT_MAX_PAGES)
    throw fieldError('VALIDATION_FAILED', 400, 'files', `At most ${DOCUMENT_MAX_PAGES} pages.`);
  const total = uploads.reduce((s, u) => s + u.bytes.length, 0);
  if (total > DOCUMENT_MAX_BYTES) throw tooLarge(total);
  const pages: Prepared['pages'] = [];
  let preview: Buffer | undefined;
  for (const [i, u] of uploads.entries()) {
    const name = cleanFileName(u.filename, `page-${i + 1}`);
    if (isPdf(u.bytes)) {
      assertSafePdf(u.bytes);
      // Drawn in its own thread, bounded; a PDF that cannot be drawn is kept without a preview.
      if (i === 0) preview = (await renderPdfFirstPage(u.bytes, DOCUMENT_PREVIEW_MAX_SIDE)) ?? undefined;
      pages.push({ fileId: '', name, contentType: 'application/pdf', size: u.bytes.length, bytes: u.bytes });
    } else if (sniffImage(u.bytes)) {
      const encoded = await normalizeDocumentPage(u.bytes);
      if (i === 0) preview = encoded.preview;
      pages.push({
        fileId: '',
        name,
        contentType: 'image/jpeg',
        size: encoded.page.length,
        bytes: encoded.page,
      });
    } else {
      throw new AppError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `"${name}" is neither a photo (JPEG, PNG, WebP) nor a PDF.`,
        [{ field: 'files', message: 'Only JPEG, PNG or WebP photos or a PDF.' }],
      );
    }
  }
  const size = pages.reduce((s, pg) => s + pg.size, 0) + (preview?.length ?? 0);
  return { pages, preview, size };
}

export const tooLarge = (total?: number) =>
  new AppError(
    413,
    'PAYLOAD_TOO_LARGE',
    `A document's pages may weigh ${DOCUMENT_MAX_BYTES / MB} MB in all${total ? `; these weigh ${mb(total)} MB` : ''}.`,
    [{ field: 'files', message: `At most ${DOCUMENT_MAX_BYTES / MB} MB in all.` }],
  );

/** The uploaded name; a re-encoded photo's ends in .jpg (its bytes are a JPEG now). */
function downloadName(name: string, contentType: string): string {
  if (contentType !== 'image/jpeg' || /\.jpe?g$/i.test(name)) return name;
  return `${name.replace(/\.[A-Za-z0-9]{1,5}$/, '')}.jpg`;
}

const stale = (current: DocumentWithPages) =>
  new AppError(
    409,
    'VERSION_CONFLICT',
    'This document was changed elsewhere. Review the current version.',
    presentDocument(current),
  );
