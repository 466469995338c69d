import { z } from 'zod';

/** Every error the API answers with has this shape; the web translates `code`. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'PASSWORD_LOGIN_DISABLED',
  'OIDC_LINK_EXPIRED',
  'ACCOUNT_SUSPENDED',
  'ACCOUNT_PENDING',
  'SESSION_EXPIRED',
  'FORBIDDEN',
  'CSRF_FAILED',
  'NOT_FOUND',
  'USERNAME_TAKEN',
  'EMAIL_TAKEN',
  'CONFLICT',
  'VERSION_CONFLICT',
  'DUPLICATE_REGISTRATION',
  'REMINDER_DISABLED',
  'IDEMPOTENCY_KEY_REUSED',
  'LAST_ADMIN',
  'CONSENT_REQUIRED',
  'AI_CONSENT_REQUIRED',
  'CONSENT_IRREVOCABLE',
  'INVALID_RESET_TOKEN',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNREADABLE_RECEIPT',
  'OCR_BUSY',
  'UNAVAILABLE',
  'UNREADABLE_IMPORT',
  'INTERNAL',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const FieldIssue = z.object({ field: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssue>;

export const ApiError = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ApiError = z.infer<typeof ApiError>;
