import type { ApiTokenScope, Role } from '@evdra/domain';

/**
 * The caller an authenticated request runs as. `apiToken`: the request came with a personal API
 * token (Authorization: Bearer), not a cookie session; its scope bounds what it may do.
 */
export type Principal = {
  userId: number;
  role: Role;
  familyId: string;
  apiToken?: { id: number; scope: ApiTokenScope };
};

/** The tokens a login or refresh hands out, for the session cookies. */
export type IssuedSession = {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
  csrfToken: string;
};
