import type { FieldIssue } from '@evdra/domain';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from './errors.js';

/**
 * Every route's validator: a string holding U+0000 (which PostgreSQL text cannot store) is refused
 * first, naming its field, then zod checks the rest. In the compiler, not a preValidation hook, so
 * that a request pays for it only in the parts its route declares.
 */
export const validatorCompiler: typeof zodValidatorCompiler = (route) => {
  const validate = zodValidatorCompiler(route);
  return (data) => {
    const field = nulIn(data, route.httpPart ?? 'body');
    if (!field) return validate(data);
    const message = 'NUL characters are not allowed.';
    return { error: new AppError(400, 'VALIDATION_FAILED', `${field}: ${message}`, [{ field, message }]) };
  };
};

/** The path of the first string holding U+0000 in a parsed value (iterative: input may nest deeply). */
function nulIn(value: unknown, root: string): string | undefined {
  if (flatWithoutNul(value)) return undefined;
  const stack: [unknown, string][] = [[value, '']];
  for (let seen = 0; stack.length && seen < 100_000; seen++) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path || root;
    } else if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        if (k.includes('\u0000')) return path ? `${path}.${k}` : k;
        stack.push([(v as Record<string, unknown>)[k], path ? `${path}.${k}` : k]);
      }
    }
  }
  return undefined;
}

/**
 * True for the usual params or query: an object of plain values, none of them (nor any key) holding
 * U+0000. Checked without the walk's allocations, which were most of a small GET's validation.
 */
function flatWithoutNul(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (
      k.includes('\u0000') ||
      (v !== null && typeof v === 'object') ||
      (typeof v === 'string' && v.includes('\u0000'))
    )
      return false;
  }
  return true;
}

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
