import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from '@evdra/domain';

/** Field name → already translated message. */
export type FieldErrors = Partial<Record<string, string>>;

/** Loose "looks like an email" check, the same idea as the server's (local@domain.tld). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

export type UsernameProblem = 'length' | 'pattern' | null;

export function usernameProblem(value: string): UsernameProblem {
  const v = value.trim();
  if (v.length < USERNAME_MIN || v.length > USERNAME_MAX) return 'length';
  if (!USERNAME_PATTERN.test(v)) return 'pattern';
  return null;
}

export function passwordLengthOk(value: string): boolean {
  return value.length >= PASSWORD_MIN && value.length <= PASSWORD_MAX;
}

export const LIMITS = { USERNAME_MIN, USERNAME_MAX, PASSWORD_MIN, PASSWORD_MAX };

export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some(Boolean);
}
