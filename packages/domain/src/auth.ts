import { z } from 'zod';
import { Language } from './enums.js';
import { Email, Password, User, Username } from './user.js';

export const RegisterBody = z.object({
  username: Username,
  email: Email,
  password: Password,
  gdprConsent: z.literal(true, { error: 'You must accept the GDPR agreement.' }),
  /** The interface language the visitor registered in; English when absent. */
  language: Language.optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

/** `username` may be the username or the email. */
export const LoginBody = z.object({
  username: z.string().trim().min(1, 'Username is required.').max(254),
  password: z.string().min(1, 'Password is required.').max(1024),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const ForgotPasswordQuery = z.object({ email: Email });
export const ResetPasswordBody = z.object({
  token: z.string().min(10).max(200),
  password: Password,
});

export const SessionResponse = z.object({ user: User, csrfToken: z.string() });
export type SessionResponse = z.infer<typeof SessionResponse>;

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const CSRF_HEADER = 'x-csrf-token';
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
