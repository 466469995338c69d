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

/** GET /api/auth/providers: how this server lets people sign in (issue 53). */
export const AuthProviders = z.object({
  oidc: z.object({ buttonText: z.string() }).nullable(),
  passwordLogin: z.boolean(),
});
export type AuthProviders = z.infer<typeof AuthProviders>;

/** GET /api/auth/oidc/link: the sign-in waiting for the local password (no secrets). */
export const OidcLinkInfo = z.object({ email: z.string(), username: z.string() });
export type OidcLinkInfo = z.infer<typeof OidcLinkInfo>;

/** POST /api/auth/oidc/link: the local account's password, proven once to link the provider's account. */
export const OidcLinkBody = z.object({ password: z.string().min(1, 'Password is required.').max(1024) });
export type OidcLinkBody = z.infer<typeof OidcLinkBody>;

/** POST /api/auth/logout after a provider sign-in, when OIDC_END_SESSION: where to end its session too. */
export const LogoutResponse = z.object({ endSessionUrl: z.string().url() });
export type LogoutResponse = z.infer<typeof LogoutResponse>;

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const CSRF_HEADER = 'x-csrf-token';
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
