import { ApiError } from '@evdra/domain';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

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
};

/**
 * Reads a multipart body: its text fields and the bytes of every file part named `fileField`.
 * A file over `maxFileBytes` or too many parts keeps the parser's own status (413); a body the
 * parser cannot read (wrong boundary, truncated) is the client's fault: 400, never a 5xx.
 */
export async function readMultipart(
  req: FastifyRequest,
  { fileField, maxFileBytes, maxFiles, maxFields = 10 }: MultipartLimits,
): Promise<{ fields: Record<string, string>; files: Buffer[] }> {
  if (!req.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send multipart/form-data.');
  const fields: Record<string, string> = {};
  const files: Buffer[] = [];
  try {
    for await (const part of req.parts({
      limits: { fileSize: maxFileBytes, files: maxFiles, fields: maxFields },
    })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === fileField) files.push(bytes);
      } else fields[part.fieldname] = String(part.value);
    }
  } catch (err) {
    if (err instanceof AppError || (err as { statusCode?: number }).statusCode) throw err;
    throw new AppError(400, 'VALIDATION_FAILED', 'The multipart body could not be read.');
  }
  return { fields, files };
}
