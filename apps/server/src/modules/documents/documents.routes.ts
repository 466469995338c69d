import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_MAX_PAGES,
  DOCUMENTS_CAP,
  DOCUMENTS_PAGE_MAX,
  DocumentData,
  DocumentFileQuery,
  DocumentListQuery,
  DocumentParams,
  DocumentUpdateData,
  IdParams,
  VehicleDocument,
} from '@evdra/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { etagMatches } from '../../lib/etag.js';
import { jsonPartOf, multipartRoute, uploadErrors, withMultipart } from '../../lib/multipart.js';
import { setNextPage } from '../../lib/next-page.js';
import { parseOr400 } from '../../lib/validation.js';
import { principalOf } from '../../plugins/auth.js';
import { type DocumentsService, tooLarge, type Upload } from './documents.service.js';

const JSON_PART_MAX_BYTES = 1024 * 1024;

/**
 * Reads a document upload: the `data` part (a text field or an application/json file part) and every
 * file part named `files` with the name it was sent under. Past 20 MB in all it stops reading: 413.
 */
async function readDocumentParts(req: FastifyRequest): Promise<{ data: unknown; uploads: Upload[] }> {
  if (!req.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send multipart/form-data.');
  const fields: Record<string, string> = {};
  const uploads: Upload[] = [];
  let total = 0;
  try {
    for await (const part of req.parts({
      limits: { fileSize: DOCUMENT_MAX_BYTES, files: DOCUMENT_MAX_PAGES + 1, fields: 10 },
    })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'files') {
          total += bytes.length;
          if (total > DOCUMENT_MAX_BYTES) throw tooLarge();
          uploads.push({ bytes, filename: part.filename });
        } else if (part.fieldname === 'data') {
          if (bytes.length > JSON_PART_MAX_BYTES)
            throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'The part "data" is larger than 1 MB.');
          fields.data = bytes.toString('utf8');
        }
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { statusCode?: number; code?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (e.code === 'FST_FILES_LIMIT')
      throw new AppError(400, 'VALIDATION_FAILED', `At most ${DOCUMENT_MAX_PAGES} pages.`, [
        { field: 'files', message: `At most ${DOCUMENT_MAX_PAGES} pages.` },
      ]);
    if (e.code === 'FST_INVALID_JSON_FIELD_ERROR')
      throw new AppError(400, 'VALIDATION_FAILED', 'The part "data" must be JSON.', [
        { field: 'data', message: 'Must be JSON.' },
      ]);
    if (e.statusCode) throw err;
    throw new AppError(400, 'VALIDATION_FAILED', 'The multipart body could not be read.');
  }
  return { data: jsonPartOf(fields), uploads };
}

/** `inline` (or `attachment`) with the original name, as RFC 6266 writes a non-ASCII one. */
export function contentDisposition(name: string, download: boolean): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${download ? 'attachment' : 'inline'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A vehicle's papers (issue 52): list, add (multipart), read, change, delete, and their pages. */
export async function documentsRoutes(app: FastifyInstance, { service }: { service: DocumentsService }) {
  const tags = ['documents'];
  const user = { preHandler: app.requireUser };
  await withMultipart(app, (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/api/vehicles/:id/documents',
      {
        ...user,
        schema: {
          tags,
          description:
            'Newest first. Owner, editor, viewer or admin (404 for anyone else). ' +
            `At most ${DOCUMENTS_CAP} without \`limit\`; \`limit\` (1-${DOCUMENTS_PAGE_MAX}) asks for a page. When more documents follow, the X-Next-Cursor header holds the \`cursor\` of the next page and Link its URL (rel="next"); no such header: the last page.`,
          params: IdParams,
          querystring: DocumentListQuery,
          response: { 200: z.array(VehicleDocument), ...uploadErrors },
        },
      },
      async (req, reply) => {
        const page = await service.list(principalOf(req), req.params.id, req.query);
        if (page.next) setNextPage(reply, req.url, page.next);
        return page.docs;
      },
    );

    r.post(
      '/api/vehicles/:id/documents',
      {
        ...user,
        schema: {
          tags,
          ...multipartRoute,
          description:
            "Multipart: one or more file parts `files` (the pages: JPEG, PNG or WebP photos, re-encoded without metadata, or PDFs kept as they are; 20 MB in all) and a part `data` (JSON: {type, title, number, issuedOn, expiresOn, notes, private}). An expiry date makes a renewal (reminders, calendar). 413 past 20 MB or the DOCUMENT_QUOTA_MB storage of the car's owner (with what is used); 415 for other bytes, an encrypted PDF or one with JavaScript. Owner, editor or admin (403 viewer).",
          params: IdParams,
          response: { 201: VehicleDocument, ...uploadErrors },
        },
      },
      async (req, reply) => {
        const { data, uploads } = await readDocumentParts(req);
        const body = parseOr400(DocumentData, data);
        return reply.status(201).send(await service.create(principalOf(req), req.params.id, body, uploads));
      },
    );

    r.get(
      '/api/vehicles/:id/documents/:docId',
      {
        ...user,
        schema: { tags, params: DocumentParams, response: { 200: VehicleDocument, ...uploadErrors } },
      },
      async (req) => service.one(principalOf(req), req.params.id, req.params.docId),
    );

    r.put(
      '/api/vehicles/:id/documents/:docId',
      {
        ...user,
        schema: {
          tags,
          description:
            "JSON: the same fields as POST's `data` (with `version`: a stale one gets 409 with the current document); multipart (`data` + `files`) replaces every page. Owner, editor or admin (403 viewer).",
          params: DocumentParams,
          response: { 200: VehicleDocument, ...uploadErrors },
        },
      },
      async (req) => {
        const p = principalOf(req);
        if (req.isMultipart()) {
          const { data, uploads } = await readDocumentParts(req);
          const body = parseOr400(DocumentUpdateData, data);
          return service.update(p, req.params.id, req.params.docId, body, uploads);
        }
        const body = parseOr400(DocumentUpdateData, req.body);
        return service.update(p, req.params.id, req.params.docId, body);
      },
    );

    r.delete(
      '/api/vehicles/:id/documents/:docId',
      {
        ...user,
        schema: {
          tags,
          description: 'Only the owner or an admin (403 for an editor or viewer). Its renewal goes with it.',
          params: DocumentParams,
          response: { 204: z.null(), ...uploadErrors },
        },
      },
      async (req, reply) => {
        await service.remove(principalOf(req), req.params.id, req.params.docId);
        return reply.status(204).send(null);
      },
    );

    r.get(
      '/api/vehicles/:id/documents/:docId/file',
      {
        ...user,
        schema: {
          tags,
          description:
            "A page as stored (`page`, default 1), or with `preview=true` the list's small JPEG of the first page (a PDF's drawn at upload; 404 when it could not be drawn). Content-Disposition carries the uploaded name (`download=true`: as an attachment). Revalidated by ETag.",
          params: DocumentParams,
          querystring: DocumentFileQuery.extend({ download: z.enum(['true', 'false']).optional() }),
        },
      },
      async (req, reply) => {
        const q = req.query;
        const f = await service.file(
          principalOf(req),
          req.params.id,
          req.params.docId,
          q.page ?? 1,
          q.preview === 'true',
        );
        reply
          .header('cache-control', 'private, no-cache')
          .header('etag', f.etag)
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', contentDisposition(f.name, q.download === 'true'));
        if (etagMatches(req.headers['if-none-match'], f.etag)) {
          if (!Buffer.isBuffer(f.file.body)) f.file.body.destroy();
          return reply.status(304).send();
        }
        return reply.type(f.contentType).header('content-length', f.file.size).send(f.file.body);
      },
    );
  });
}
