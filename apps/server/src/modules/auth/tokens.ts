import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCESS_TOKEN_TTL_S, type Role } from '@evdra/domain';
import { jwtVerify, SignJWT } from 'jose';

export type AccessClaims = { userId: number; role: Role; familyId: string; epoch: number };

/** Signs and checks access JWTs and CSRF tokens; makes opaque tokens whose hash alone is stored. */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(private readonly secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  signAccess(c: AccessClaims): Promise<string> {
    return new SignJWT({ role: c.role, fam: c.familyId, ep: c.epoch })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(c.userId))
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_S}s`)
      .sign(this.key);
  }

  async verifyAccess(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || typeof payload.fam !== 'string') return null;
      return { userId, role: payload.role as Role, familyId: payload.fam, epoch: Number(payload.ep) };
    } catch {
      return null;
    }
  }

  /** CSRF token bound to the login (token family): survives refreshes, dies with the session. */
  csrfFor(familyId: string): string {
    return createHmac('sha256', this.secret).update(`csrf:${familyId}`).digest('base64url');
  }

  csrfMatches(familyId: string, given: string | undefined): boolean {
    if (!given) return false;
    const expected = Buffer.from(this.csrfFor(familyId));
    const actual = Buffer.from(given);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}

export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
