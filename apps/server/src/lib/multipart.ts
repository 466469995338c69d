import { ApiError } from '@evdra/domain';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * Registers upload routes in a scope of their own that parses multipart/form-data. The parser's
 * plugin adds two hooks to every request of its scope (cleaning up temporary files, which
 * readMultipart never writes): registered for the whole app, every call paid for them.
 */
export async function withMultipart(
  app: FastifyInstance,
  routes: (scope: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart);
    await routes(scope);
  });
}

/** Route options of an upload: it takes multipart/form-data. */
export const multipartRoute = { consumes: ['multipart/form-data'] };

/** The error answers an upload route documents (413 too large, 415 not an accepted type). */
export const uploadErrors = {
  400: ApiError,
  401: ApiError,
  403: ApiError,
  404: ApiError,
  409: ApiError,
  413: ApiError,
  415: ApiError,
};

export type MultipartLimits = {
  fileField: string;
  maxFileBytes: number;
  maxFiles: number;
  maxFields?: number;
  /**
   * The name of the route's JSON part (`data`), if it has one. Clients send it either as a text
   * field or as a file part (a browser's `new Blob([json], {type: 'application/json'})`, what a
   * Spring `@RequestPart` server accepts): both shapes land in `fields[jsonPart]` as text.
   */
  jsonPart?: string;
};

/** A JSON part sent as a file is held to the size of a JSON request body. */
const JSON_PART_MAX_BYTES = 1024 * 1024;

/**
 * Reads a multipart body: its text fields and the bytes of every file part named `fileField`.
 * A file over `maxFileBytes` or too many parts keeps the parser's own status (413); a body the
 * parser cannot read (wrong boundary, truncated) is the client's fault: 400, never a 5xx.
 */
export async function readMultipart(
  req: FastifyRequest,
  { fileField, maxFileBytes, maxFiles, maxFields = 10, jsonPart }: MultipartLimits,
): Promise<{ fields: Record<string, string>; files: Buffer[] }> {
  if (!req.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send multipart/form-data.');
  const fields: Record<string, string> = {};
  const files: Buffer[] = [];
  try {
    for await (const part of req.parts({
      // The JSON part, when sent as a file, is one more file part.
      limits: { fileSize: maxFileBytes, files: maxFiles + (jsonPart ? 1 : 0), fields: maxFields },
    })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === fileField) files.push(bytes);
        else if (part.fieldname === jsonPart) {
          if (bytes.length > JSON_PART_MAX_BYTES)
            throw new AppError(413, 'PAYLOAD_TOO_LARGE', `The part "${jsonPart}" is larger than 1 MB.`);
          fields[jsonPart] = bytes.toString('utf8');
        }
      } else {
        // A text part declared `application/json` arrives already parsed: keep it as JSON text.
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // A text part declared `application/json` that is not JSON (the parser's 406).
    if ((err as { code?: string }).code === 'FST_INVALID_JSON_FIELD_ERROR') throw notJson(jsonPart ?? 'data');
    if ((err as { statusCode?: number }).statusCode) throw err;
    throw new AppError(400, 'VALIDATION_FAILED', 'The multipart body could not be read.');
  }
  return { fields, files };
}

const notJson = (name: string) =>
  new AppError(400, 'VALIDATION_FAILED', `The part "${name}" must be JSON.`, [
    { field: name, message: 'Must be JSON.' },
  ]);

/**
 * The route's JSON part, parsed: 400 naming the part when it is missing or not JSON. Text read
 * from a file part may start with a byte-order mark, which JSON does not allow.
 */
export function jsonPartOf(fields: Record<string, string>, name = 'data'): unknown {
  const value = fields[name];
  if (value === undefined)
    throw new AppError(400, 'VALIDATION_FAILED', `The part "${name}" is required.`, [
      { field: name, message: 'Required.' },
    ]);
  try {
    return JSON.parse(value.replace(/^\uFEFF/, ''));
  } catch {
    throw notJson(name);
  }
}
