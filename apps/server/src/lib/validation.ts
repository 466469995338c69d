import type { FieldIssue } from '@evdra/domain';
import type { z } from 'zod';
import { AppError } from './errors.js';

/** Validates input that did not go through a route schema (multipart fields) into the shared 400. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: FieldIssue[] = result.error.issues.map((i) => ({
    field: i.path.join('.') || 'body',
    message: i.message,
  }));
  const first = details[0];
  throw new AppError(
    400,
    'VALIDATION_FAILED',
    first ? `${first.field}: ${first.message}` : 'Invalid request.',
    details,
  );
}
