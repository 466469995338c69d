/** The receipt preview routes: POST a photo or PDF, get a checked draft of the record (nothing saved). */
import {
  ApiError,
  Expense,
  ExpenseOcrPreview,
  FuelEntry,
  FuelOcrPreview,
  InspectionOcrPreview,
  Insurance,
  InsuranceOcrPreview,
  OCR_KINDS,
  OcrConfirmBodies,
  type OcrKind,
  RECEIPT_MAX_BYTES,
  Revision,
  RevisionOcrPreview,
  VehicleIdParams,
} from '@evdra/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from '../lib/errors.js';
import { readMultipart, uploadErrors } from '../lib/multipart.js';
import type { RecordsService, RecordTable } from '../modules/records/records.service.js';
import { principalOf } from '../plugins/auth.js';
import type { OcrService } from './ocr.service.js';

// An upload's answers, plus 422 (unreadable receipt) and 429 (OCR queue full).
const errors = { ...uploadErrors, 422: ApiError, 429: ApiError };
const previews: Record<OcrKind, z.ZodType> = {
  fuel: FuelOcrPreview,
  expense: ExpenseOcrPreview,
  revision: RevisionOcrPreview,
  insurance: InsuranceOcrPreview,
};
const records: Record<OcrKind, z.ZodType> = {
  fuel: FuelEntry,
  expense: Expense,
  revision: Revision,
  insurance: Insurance,
};

type Options = {
  ocr: OcrService;
  /** The same services the normal create routes use: same validation, locks and side effects. */
  services: Record<OcrKind, RecordsService<RecordTable>>;
};

/**
 * Spec §7: POST /api/{kind}-ocr/preview/{vehicleId} (multipart part `file`; saves nothing) and
 * POST /api/{kind}-ocr/confirm (the record's fields plus vehicleId → the created record).
 */
export async function ocrRoutes(app: FastifyInstance, { ocr, services }: Options) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const kind of OCR_KINDS) {
    const tags = ['ocr'];
    r.post(
      `/api/${kind}-ocr/preview/:vehicleId`,
      {
        preHandler: app.requireUser,
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description:
            "Multipart part `file`: a JPEG, PNG or WebP photo or a PDF (by content), at most 10 MB. Answers the fields read from the receipt (null when not found), a confidence per field, warnings in the user's language and the receipt's language. Saves nothing.",
          params: VehicleIdParams,
          response: { 200: previews[kind], ...errors },
        },
      },
      async (req) => {
        const file = await readFile(req);
        return ocr.preview(principalOf(req), kind, req.params.vehicleId, file) as never;
      },
    );
    r.post(
      `/api/${kind}-ocr/confirm`,
      {
        preHandler: [app.requireUser, app.idempotent],
        schema: {
          tags,
          description:
            'Creates the record exactly as the normal create does (same checks, Idempotency-Key, side effects).',
          body: OcrConfirmBodies[kind],
          response: { 201: records[kind], ...errors },
        },
      },
      async (req, reply) =>
        reply.status(201).send((await services[kind].create(principalOf(req), req.body as never)) as never),
    );
  }

  // Issue 52: an ITP / ITV certificate's expiry for the document form (no record kind of its own).
  r.post(
    '/api/inspection-ocr/preview/:vehicleId',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['ocr'],
        consumes: ['multipart/form-data'],
        description:
          'Multipart part `file`: an ITP / ITV certificate (photo or PDF, at most 10 MB). Answers `expiresOn`, the date after a label such as "Valabil până la", "Data expirării", "Próxima inspección", "Válido hasta", "Fecha de caducidad" or "Next inspection" (null when none). Saves nothing: the document form proposes it.',
        params: VehicleIdParams,
        response: { 200: InspectionOcrPreview, ...errors },
      },
    },
    async (req) => ocr.inspection(principalOf(req), req.params.vehicleId, await readFile(req)),
  );
}

async function readFile(req: FastifyRequest): Promise<Buffer> {
  const {
    files: [file],
  } = await readMultipart(req, {
    fileField: 'file',
    maxFileBytes: RECEIPT_MAX_BYTES,
    maxFiles: 1,
    maxFields: 5,
  });
  if (!file || file.length === 0)
    throw new AppError(400, 'VALIDATION_FAILED', 'Attach the receipt as the file part "file".', [
      { field: 'file', message: 'Required.' },
    ]);
  return file;
}
