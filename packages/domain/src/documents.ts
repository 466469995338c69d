import { z } from 'zod';
import { IsoDate, Text } from './common.js';
import { DOCUMENT_MAX_PAGES, DOCUMENT_TYPES } from './document-types.js';
import { IdCursor, PageLimit } from './paging.js';

/** A document type (the API's names). */
export const DocumentType = z.enum(DOCUMENT_TYPES);
export type DocumentType = z.infer<typeof DocumentType>;

const DocumentFields = z.object({
  type: DocumentType,
  title: Text(120).pipe(z.string().min(1, 'Required.')),
  number: Text(60).nullable().optional(),
  issuedOn: IsoDate.nullable().optional(),
  expiresOn: IsoDate.nullable().optional(),
  notes: Text(2000).default(''),
  /** Left out: the type's default (DEFAULT_PRIVATE_DOCUMENT_TYPES). */
  private: z.boolean().optional(),
});
const expiresNotBeforeIssued = <T extends { issuedOn?: string | null; expiresOn?: string | null }>(v: T) =>
  !v.issuedOn || !v.expiresOn || v.expiresOn >= v.issuedOn;
const expiresMessage = { message: 'The expiry date cannot be before the issue date.', path: ['expiresOn'] };

/** The `data` part of POST /api/vehicles/{id}/documents. */
export const DocumentData = DocumentFields.refine(expiresNotBeforeIssued, expiresMessage);
export type DocumentData = z.infer<typeof DocumentData>;
/** PUT: the same, with the version the change was based on (a stale one gets 409). */
export const DocumentUpdateData = DocumentFields.extend({
  version: z.number().int().min(0).optional(),
}).refine(expiresNotBeforeIssued, expiresMessage);
export type DocumentUpdateData = z.infer<typeof DocumentUpdateData>;

export const DocumentPage = z.object({
  page: z.number().int(),
  /** The file name it was uploaded under (used on download). */
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  url: z.string(),
});
export type DocumentPage = z.infer<typeof DocumentPage>;

export const VehicleDocument = z.object({
  id: z.number().int(),
  vehicleId: z.number().int(),
  type: DocumentType,
  title: z.string(),
  number: z.string().nullable(),
  issuedOn: z.string().nullable(),
  expiresOn: z.string().nullable(),
  notes: z.string(),
  private: z.boolean(),
  pages: z.array(DocumentPage),
  /** A small image of the first page for lists; null for a PDF (the list shows a PDF sign). */
  previewUrl: z.string().nullable(),
  /** Bytes stored for its pages. */
  size: z.number().int(),
  /** The renewal its expiry date made (reminders, calendar), if any. */
  renewalId: z.number().int().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type VehicleDocument = z.infer<typeof VehicleDocument>;

/**
 * GET /api/vehicles/{id}/documents without `limit` answers at most this many documents, newest first
 * (issue 54): every car's papers of today's sizes whole, as before paging.
 */
export const DOCUMENTS_CAP = 10_000;
/** The largest page of documents a client may ask for. */
export const DOCUMENTS_PAGE_MAX = 200;
/** The page the web asks for (Load more). */
export const DOCUMENTS_PAGE_SIZE = 50;

/**
 * A vehicle's documents a page at a time: `limit` documents after `cursor` (the last id of the page
 * before, newest first). The answer stays a bare array; X-Next-Cursor and Link say where the next starts.
 */
export const DocumentListQuery = z.object({
  limit: PageLimit(DOCUMENTS_PAGE_MAX).optional(),
  cursor: IdCursor.optional(),
});
export type DocumentListQuery = z.infer<typeof DocumentListQuery>;

export const DocumentParams = z.object({
  id: z.coerce.number().int().positive(),
  docId: z.coerce.number().int().positive(),
});
export const DocumentFileQuery = z.object({
  page: z.coerce.number().int().min(1).max(DOCUMENT_MAX_PAGES).optional(),
  preview: z.enum(['true', 'false']).optional(),
});
