import {
  ApiError,
  IMPORT_MAX_BYTES,
  ImportMapping,
  ImportPreview,
  ImportResult,
  VehicleIdParams,
} from '@evdra/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { multipartRoute, readMultipart, uploadErrors } from '../../lib/multipart.js';
import { principalOf } from '../../plugins/auth.js';
import type { ImportService } from './import.service.js';

const errors = { ...uploadErrors, 422: ApiError };
const tags = ['import'];
const fileHelp =
  'Multipart part `file`: a CSV (or a ZIP holding CSVs) from LubeLogger, Fuelio, Drivvo, Fuelly, this app, or any CSV with a header row, at most 20 MB; optional part `mapping` (JSON: columns of a generic CSV by header name, units, and `currency`: the ISO 4217 code of the amounts whose currency the file does not name; an amount whose cell, column or header names its currency keeps it). The format is detected from the content. 413 PAYLOAD_TOO_LARGE for a ZIP of more than 50 entries or 100 MB unpacked (checked before unpacking), an entry that unpacks past the size it declares, or more than 200,000 CSV rows.';

/** Import (preview → confirm) into a vehicle, and its CSV export. */
export async function importRoutes(app: FastifyInstance, { service }: { service: ImportService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/import/preview/:vehicleId',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        ...multipartRoute,
        description: `${fileHelp} Saves nothing: answers what would be imported (first 20 records of each kind), duplicates, warnings and errors per row. Owner only (404 otherwise).`,
        params: VehicleIdParams,
        response: { 200: ImportPreview, ...errors },
      },
    },
    async (req) => {
      const { file, mapping } = await readImport(req);
      return service.preview(principalOf(req), req.params.vehicleId, file, mapping);
    },
  );

  r.post(
    '/api/import/confirm/:vehicleId',
    {
      preHandler: [app.requireUser, app.idempotent],
      schema: {
        tags,
        ...multipartRoute,
        description: `${fileHelp} Imports in one transaction with the rules of records typed by hand; rows matching an existing record (date + odometer + amount) are skipped, so the same file twice adds nothing. Each record added sends record.created to the webhooks that want it, as a typed one does. Owner only (404 otherwise). Accepts an Idempotency-Key header.`,
        params: VehicleIdParams,
        response: { 200: ImportResult, ...errors },
      },
    },
    async (req) => {
      const { file, mapping } = await readImport(req);
      return service.confirm(principalOf(req), req.params.vehicleId, file, mapping);
    },
  );

  r.get(
    '/api/vehicles/:vehicleId/export.csv',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        description:
          "Every record of the vehicle as one CSV (a `kind` column, this app's field names, ISO dates, `.` decimals), re-importable.",
        params: VehicleIdParams,
        response: { 200: z.string(), 401: ApiError, 404: ApiError },
      },
    },
    async (req, reply) => {
      const csv = await service.exportCsv(principalOf(req), req.params.vehicleId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="vehicle-${req.params.vehicleId}-records.csv"`)
        .send(csv);
    },
  );
}

async function readImport(req: FastifyRequest): Promise<{ file: Buffer; mapping?: ImportMapping }> {
  let parts: Awaited<ReturnType<typeof readMultipart>>;
  try {
    parts = await readMultipart(req, {
      fileField: 'file',
      maxFileBytes: IMPORT_MAX_BYTES,
      maxFiles: 1,
      maxFields: 5,
    });
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 413)
      throw new AppError(
        413,
        'PAYLOAD_TOO_LARGE',
        'The file is larger than 20 MB. Split it, or zip it, and try again.',
      );
    throw err;
  }
  const [file] = parts.files;
  if (!file || file.length === 0)
    throw new AppError(400, 'VALIDATION_FAILED', 'Attach the file to import as the part "file".', [
      { field: 'file', message: 'Required.' },
    ]);
  const raw = parts.fields.mapping;
  if (!raw) return { file };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError(400, 'VALIDATION_FAILED', 'The part "mapping" must be JSON.', [
      { field: 'mapping', message: 'Must be JSON.' },
    ]);
  }
  const mapping = ImportMapping.safeParse(json);
  if (!mapping.success)
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      'The part "mapping" is not a valid mapping.',
      mapping.error.issues.map((i) => ({ field: ['mapping', ...i.path].join('.'), message: i.message })),
    );
  return { file, mapping: mapping.data };
}
