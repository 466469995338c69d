import type { ErrorCode, FieldIssue } from '@evdra/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { clientFaultOf, databaseUnavailable } from '../db/errors.js';
import { AppError } from '../lib/errors.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Seconds a client should wait before retrying while the database is away (health/ready says the same). */
export const DATABASE_RETRY_AFTER_S = '5';

/** One error shape for every failure: {code, message, details?}. A 5xx never carries internals. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply
        .status(err.statusCode)
        .send({ code: err.code, message: err.message, details: err.details });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'body';
      const details: FieldIssue[] = err.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replaceAll('/', '.') || where,
        message: v.message ?? 'Invalid value.',
      }));
      const first = details[0];
      const message = first ? `${first.field}: ${first.message}` : 'Invalid request.';
      return reply.status(400).send({ code: 'VALIDATION_FAILED', message, details });
    }
    const fault = clientFaultOf(err);
    if (fault) {
      request.log.info({ err }, 'input refused by the database');
      const code: ErrorCode = fault.status === 409 ? 'CONFLICT' : 'VALIDATION_FAILED';
      return reply.status(fault.status).send({ code, message: fault.message });
    }
    if (databaseUnavailable(err)) {
      // Not a bug of ours and not the request's fault: the client may retry, and the web app says so.
      request.log.warn({ err }, 'database unavailable');
      return reply.status(503).header('retry-after', DATABASE_RETRY_AFTER_S).send({
        code: 'UNAVAILABLE',
        message: 'The database cannot be reached right now. Try again in a moment.',
      });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send({ code: 'INTERNAL', message: 'Something went wrong on our side.' });
    }
    const code = CODE_BY_STATUS[status] ?? 'VALIDATION_FAILED';
    const message = status === 429 ? 'Too many requests. Please wait and try again.' : err.message;
    return reply.status(status).send({ code, message });
  });
});
