import type { ErrorCode, FieldIssue } from '@evdra/domain';

/** An expected failure: the error handler answers it as {code, message, details?} with this status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found.`);
export const forbidden = (message = 'You are not allowed to do this.') =>
  new AppError(403, 'FORBIDDEN', message);
export const fieldError = (code: ErrorCode, status: number, field: string, message: string) =>
  new AppError(status, code, message, [{ field, message } satisfies FieldIssue]);

/**
 * A write broke a unique constraint. Repos throw it in place of the driver's error (SQLSTATE
 * 23505), so services decide what it means without knowing database codes.
 */
export class UniqueViolation extends Error {
  constructor(
    /** The constraint or unique index's name ('' when the driver did not say). */
    readonly constraint: string,
    options?: { cause?: unknown },
  ) {
    super(`Unique constraint violated: ${constraint}`, options);
  }
}
