import type { Role } from '@evdra/domain';

/** The caller an authenticated request runs as. */
export type Principal = { userId: number; role: Role; familyId: string };

/** The tokens a login or refresh hands out, for the session cookies. */
export type IssuedSession = {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
  csrfToken: string;
};
